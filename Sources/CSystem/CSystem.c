#define _GNU_SOURCE
#include "CSystem.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/types.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#ifdef __linux__
#include <sched.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#endif
#endif

int gitjournal_spawn_detached(const char *path, char *const argv[], char *const envp[]) {
  posix_spawnattr_t attributes;
  posix_spawn_file_actions_t actions;
  pid_t pid;
  int result;
  short flags = POSIX_SPAWN_SETSID;
#ifdef __APPLE__
  flags |= POSIX_SPAWN_CLOEXEC_DEFAULT;
#endif

  if ((result = posix_spawnattr_init(&attributes)) != 0) return result;
  if ((result = posix_spawn_file_actions_init(&actions)) != 0) {
    posix_spawnattr_destroy(&attributes);
    return result;
  }
  result = posix_spawnattr_setflags(&attributes, flags);
  if (result == 0) result = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  if (result == 0) result = posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  if (result == 0) result = posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
  if (result == 0) result = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
#endif
  if (result == 0) result = posix_spawn(&pid, path, &actions, &attributes, argv, envp);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  return result;
}

int gitjournal_sync_file_system(int descriptor) {
#ifdef __linux__
  return syncfs(descriptor);
#else
  (void)descriptor;
  sync();
  return 0;
#endif
}

void gitjournal_return_large_allocations(int bytes) {
#ifdef __GLIBC__
  mallopt(M_MMAP_THRESHOLD, bytes);
  // Setting one threshold stops glibc adjusting the other. Freed memory up to four times that size stays at the
  // top of each heap for the next blobs: returned at once, it was faulted in again for every blob (600,000 page
  // faults in a full rebuild of libgit2's history, against 150,000 to 400,000 with this).
  mallopt(M_TRIM_THRESHOLD, 4 * bytes);
#else
  (void)bytes;
#endif
}

int gitjournal_open_unnamed(const char *folder, unsigned int mode) {
#if defined(__linux__) && defined(O_TMPFILE)
  return open(folder, O_TMPFILE | O_WRONLY | O_CLOEXEC, (mode_t)mode);
#else
  (void)folder;
  (void)mode;
  errno = EOPNOTSUPP;
  return -1;
#endif
}

int gitjournal_link_unnamed(int descriptor, const char *path) {
#ifdef __linux__
  // linkat with AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH; the descriptor's /proc link needs nothing.
  char source[64];
  snprintf(source, sizeof source, "/proc/self/fd/%d", descriptor);
  return linkat(AT_FDCWD, source, AT_FDCWD, path, AT_SYMLINK_FOLLOW);
#else
  (void)descriptor;
  (void)path;
  errno = EOPNOTSUPP;
  return -1;
#endif
}

int gitjournal_has_default_acl(const char *folder) {
#ifdef __linux__
  if (getxattr(folder, "system.posix_acl_default", NULL, 0) >= 0) return 1;
  // ENOTSUP: a file system without ACLs.
  return errno == ENODATA || errno == ENOTSUP ? 0 : -1;
#else
  (void)folder;
  return -1;
#endif
}

int gitjournal_usable_processors(void) {
#ifdef __linux__
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
  return 1;
#else
  long count = sysconf(_SC_NPROCESSORS_ONLN);
  return count > 0 ? (int)count : 1;
#endif
}

int gitjournal_open_folder_without_links(const char *path) {
#if defined(__linux__) && defined(SYS_openat2) && defined(RESOLVE_NO_SYMLINKS)
  // Set once a call has said ENOSYS: every later call would say it again. Several threads resolve paths at once.
  static int unavailable = 0;
  if (!__atomic_load_n(&unavailable, __ATOMIC_RELAXED)) {
    struct open_how how = {
        .flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK,
        .resolve = RESOLVE_NO_SYMLINKS,
    };
    long descriptor = syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof how);
    if (descriptor >= 0 || errno != ENOSYS) return (int)descriptor;
    __atomic_store_n(&unavailable, 1, __ATOMIC_RELAXED);
  }
#else
  (void)path;
#endif
  errno = ENOSYS;
  return -1;
}

// The deadline's lines, copied when it is armed: the signal handler may only read them.
static char *deadline_log_path;
static char *deadline_log_line;
static char *deadline_terminal_line;

static void write_whole(int descriptor, const char *text) {
  size_t left = strlen(text);
  while (left > 0) {
    ssize_t written = write(descriptor, text, left);
    if (written <= 0) return;
    text += written;
    left -= (size_t)written;
  }
}

static void deadline_passed(int signal_number) {
  (void)signal_number;
  // Only async-signal-safe calls from here: open, write, close, _exit.
  int log = open(deadline_log_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (log >= 0) {
    write_whole(log, deadline_log_line);
    close(log);
  }
  write_whole(2, deadline_terminal_line);
  _exit(0);
}

int gitjournal_arm_deadline(unsigned int seconds, const char *log_path, const char *log_line,
                            const char *terminal_line) {
  char *path = strdup(log_path), *line = strdup(log_line), *terminal = strdup(terminal_line);
  if (path == NULL || line == NULL || terminal == NULL) {
    free(path);
    free(line);
    free(terminal);
    errno = ENOMEM;
    return -1;
  }
  deadline_log_path = path;
  deadline_log_line = line;
  deadline_terminal_line = terminal;
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = deadline_passed;
  sigemptyset(&action.sa_mask);
  if (sigaction(SIGALRM, &action, NULL) != 0) return -1;
  alarm(seconds);
  return 0;
}
