#ifndef GITJOURNAL_CSYSTEM_H
#define GITJOURNAL_CSYSTEM_H

/// Starts `path` in a new session with stdin, stdout and stderr on /dev/null and no other inherited file
/// descriptors. Returns 0 or an errno value. (In C because glibc declares POSIX_SPAWN_SETSID and
/// posix_spawn_file_actions_addclosefrom_np only for _GNU_SOURCE, which Swift's Glibc module does not set.)
int gitjournal_spawn_detached(const char *path, char *const argv[], char *const envp[]);

/// Flushes the file system that holds the open file `descriptor` (syncfs on Linux, sync elsewhere). Returns
/// 0 or -1 with errno.
int gitjournal_sync_file_system(int descriptor);

/// Has glibc's malloc give every allocation of at least `bytes` its own mapping, returned to the system when
/// freed, and keep at most four times that much free at the top of a heap. (Its default thresholds rise after
/// the first large free, after which big blobs stay in the heap and the process keeps their memory.) Does
/// nothing on other C libraries.
void gitjournal_return_large_allocations(int bytes);

/// Opens an unnamed regular file in `folder` for writing (O_TMPFILE), with `mode` less the umask: it gets a name
/// only by `gitjournal_link_unnamed`, and a crash before that leaves nothing behind. Returns the descriptor, or -1
/// with errno (EOPNOTSUPP where the system or the file system has no such files).
int gitjournal_open_unnamed(const char *folder, unsigned int mode);

/// Gives the file opened by `gitjournal_open_unnamed` the name `path`, failing with EEXIST when anything is there
/// already: readers see no file or all of it. Returns 0 or -1 with errno (ENOENT also when /proc is not mounted).
int gitjournal_link_unnamed(int descriptor, const char *path);

/// Whether `folder` has a default ACL, which then sets the permissions of the files made in it instead of the umask:
/// 1 or 0, or -1 when that cannot be told (not Linux, or the folder cannot be looked at).
int gitjournal_has_default_acl(const char *folder);

/// How many processors this process may run on (its affinity mask; a cgroup's CPU quota is not counted): one
/// system call. At least 1.
int gitjournal_usable_processors(void);

/// Opens the folder at `path` (read-only, close-on-exec, not blocking) only when no part of the path is a symbolic
/// link, the last one included (openat2's RESOLVE_NO_SYMLINKS). Returns the descriptor, or -1 with errno: ELOOP
/// for a symbolic link on the way, ENOSYS where the system has no such call (not Linux, a kernel before 5.6, or
/// a sandbox that refuses it; asked only once then).
int gitjournal_open_folder_without_links(const char *path);

/// After `seconds`, whatever the process is doing, appends `log_line` to the file `log_path`, writes
/// `terminal_line` to standard error and ends the process with status 0. The lines are copied; the handler uses only
/// async-signal-safe calls (a hook stuck in a damaged repository's read holds no lock the kernel does not release).
/// A process may arm one deadline; children it starts do not inherit it. Returns 0 or -1 with errno.
int gitjournal_arm_deadline(unsigned int seconds, const char *log_path, const char *log_line,
                            const char *terminal_line);

#endif
