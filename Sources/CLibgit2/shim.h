#ifndef GITJOURNAL_CLIBGIT2_SHIM_H
#define GITJOURNAL_CLIBGIT2_SHIM_H

#include <git2.h>
#include <git2/sys/repository.h>

/// `git_libgit2_opts` is variadic, which Swift cannot call: these wrap the options gitjournal sets.
static inline int gitjournal_disable_strict_hash_verification(void) {
  return git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
}

/// Caps libgit2's memory for long history scans: the decompressed-object cache (256 MiB by default) and
/// the pack windows it keeps mapped (8 GiB by default on 64-bit).
static inline int gitjournal_limit_memory(size_t cache_bytes, size_t mapped_bytes) {
  int result = git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, (ssize_t)cache_bytes);
  if (result == 0) result = git_libgit2_opts(GIT_OPT_SET_MWINDOW_MAPPED_LIMIT, mapped_bytes);
  return result;
}

#endif
