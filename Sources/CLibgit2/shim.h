#ifndef GITJOURNAL_CLIBGIT2_SHIM_H
#define GITJOURNAL_CLIBGIT2_SHIM_H

#include <git2.h>
#include <git2/sys/repository.h>

/// `git_libgit2_opts` is variadic, which Swift cannot call: these wrap the options gitjournal sets.
static inline int gitjournal_disable_strict_hash_verification(void) {
  return git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
}

/// Caps libgit2's memory for long history scans: the decompressed-object cache (256 MiB by default), the size
/// of one mapped window of a pack file (1 GiB by default on 64-bit, which maps a whole pack at once) and the
/// windows it keeps mapped (8 GiB by default).
static inline int gitjournal_limit_memory(size_t cache_bytes, size_t window_bytes, size_t mapped_bytes) {
  int result = git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, (ssize_t)cache_bytes);
  if (result == 0) result = git_libgit2_opts(GIT_OPT_SET_MWINDOW_SIZE, window_bytes);
  if (result == 0) result = git_libgit2_opts(GIT_OPT_SET_MWINDOW_MAPPED_LIMIT, mapped_bytes);
  return result;
}

/// Sums a diff's hunks: with no context lines, a hunk's old and new line counts are exactly the lines it
/// deletes and adds.
static int gitjournal_add_hunk(const git_diff_delta *delta, const git_diff_hunk *hunk, void *payload) {
  (void)delta;
  size_t *counts = payload;
  counts[0] += (size_t)hunk->new_lines;
  counts[1] += (size_t)hunk->old_lines;
  return 0;
}

/// Lines added and deleted between two blobs by libgit2's xdiff (git's algorithm): hunks only, with no context,
/// no binary detection (the caller decides that) and no patch kept in memory.
///
/// The paths are empty on purpose: with no path libgit2 names both sides "file" and looks up its `diff`
/// attribute, a stat of `info/attributes` and `/etc/gitattributes` for every call; an empty path skips the
/// lookup (a path-less blob has no attributes, and FORCE_TEXT already settles text against binary).
static inline int gitjournal_count_line_changes(
    const git_blob *old_blob, const git_blob *new_blob, size_t *insertions, size_t *deletions) {
  git_diff_options options;
  int result = git_diff_options_init(&options, GIT_DIFF_OPTIONS_VERSION);
  if (result != 0) return result;
  options.context_lines = 0;
  options.interhunk_lines = 0;
  options.flags |= GIT_DIFF_FORCE_TEXT;
  size_t counts[2] = {0, 0};
  result = git_diff_blobs(old_blob, "", new_blob, "", &options, NULL, NULL, gitjournal_add_hunk, NULL, counts);
  *insertions = counts[0];
  *deletions = counts[1];
  return result;
}

#endif
