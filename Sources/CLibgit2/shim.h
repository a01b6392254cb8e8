#ifndef GITJOURNAL_CLIBGIT2_SHIM_H
#define GITJOURNAL_CLIBGIT2_SHIM_H

#include <git2.h>

/// `git_libgit2_opts` is variadic, which Swift cannot call: these wrap the options gitjournal sets.
static inline int gitjournal_disable_strict_hash_verification(void) {
  return git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
}

#endif
