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

#endif
