#ifndef GITJOURNAL_CLIBGIT2_SHIM_H
#define GITJOURNAL_CLIBGIT2_SHIM_H

#include <git2.h>
#include <git2/sys/repository.h>
#include <stdlib.h>
// zlib, which libgit2 is linked with and git compresses objects with: its bound on a compressed size limits how
// much of a pack entry GitReader's pack reader reads (libdeflate inflates it).
#include <zlib.h>

/// `git_libgit2_opts` is variadic, which Swift cannot call: these wrap the options gitjournal sets.
static inline int gitjournal_disable_strict_hash_verification(void) {
  return git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
}

/// Where libgit2 looks for the config files of one level (`GIT_CONFIG_LEVEL_GLOBAL`, `_XDG`, `_SYSTEM`): the test
/// suite points them at an empty folder, so no user's `~/.gitconfig` changes what it reads.
static inline int gitjournal_set_config_search_path(int level, const char *path) {
  return git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, level, path);
}

/// Caps libgit2's memory for long history scans: no cache of parsed objects (256 MiB by default), the size of one
/// mapped window of a pack file (1 GiB by default on 64-bit, which maps a whole pack at once) and the windows it
/// keeps mapped (8 GiB by default).
static inline int gitjournal_limit_memory(size_t window_bytes, size_t mapped_bytes) {
  int result = git_libgit2_opts(GIT_OPT_ENABLE_CACHING, 0);
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

/// libgit2's own limit on what it diffs (`GIT_XDIFF_MAX_SIZE`): larger texts are refused, as libgit2 does.
#define GITJOURNAL_LARGEST_DIFFED_TEXT (INT64_C(1024) * 1024 * 1023)

/// Lines added and deleted between two texts through libgit2's public API: hunks only, with no context and no
/// binary detection (the caller decides that). libgit2 hashes both texts first (SHA-1, for the deltas' ids), so
/// the direct call below is preferred where it exists.
static inline int gitjournal_count_line_changes_public(
    const char *old_text, size_t old_size, const char *new_text, size_t new_size, size_t *insertions,
    size_t *deletions) {
  git_diff_options options;
  int result = git_diff_options_init(&options, GIT_DIFF_OPTIONS_VERSION);
  if (result != 0) return result;
  options.context_lines = 0;
  options.interhunk_lines = 0;
  options.flags |= GIT_DIFF_FORCE_TEXT;
  size_t counts[2] = {0, 0};
  // The paths are empty on purpose: with no path libgit2 looks up no `diff` attribute (a stat of
  // `info/attributes` and `/etc/gitattributes` for every call), and FORCE_TEXT already settles text against binary.
  result = git_diff_buffers(
      old_text, old_size, "", new_text, new_size, "", &options, NULL, NULL, gitjournal_add_hunk, NULL, counts);
  *insertions = counts[0];
  *deletions = counts[1];
  return result;
}

#if defined(GITJOURNAL_STATIC_LIBGIT2) && LIBGIT2_VER_MAJOR == 1 && LIBGIT2_VER_MINOR == 5
/// Where libgit2 1.5 is linked in from its static archive (see Package.swift), xdiff's entry point comes with it:
/// `xdl_diff`, the function every libgit2 diff ends in, which the shared library does not export. Calling it
/// directly diffs two texts without the SHA-1 of both that `git_diff_buffers` computes first. These four types are
/// xdiff's own as libgit2 1.5 declares them (`src/libgit2/xdiff/xdiff.h`, the same in every 1.5 release). They are
/// private to libgit2 and no installed header declares them, so they cannot be checked against another release:
/// any other version, and the shared library, take the public path, and `gitjournal --version --verbose` says which
/// path a build has. `LineChangesTests` compares both paths with git.
#define GITJOURNAL_DIRECT_XDIFF 1
typedef struct {
  char *ptr;
  long size;
} gitjournal_xdiff_text;

typedef struct {
  unsigned long flags;
  void **ignore_regex;
  size_t ignore_regex_nr;
  char **anchors;
  size_t anchors_nr;
} gitjournal_xdiff_parameters;

typedef struct {
  void *priv;
  void *out_hunk;
  void *out_line;
} gitjournal_xdiff_callbacks;

typedef struct {
  long ctxlen;
  long interhunkctxlen;
  unsigned long flags;
  void *find_func;
  void *find_func_priv;
  int (*hunk_func)(long old_start, long old_count, long new_start, long new_count, void *payload);
} gitjournal_xdiff_output;

int xdl_diff(
    gitjournal_xdiff_text *old_text, gitjournal_xdiff_text *new_text, const gitjournal_xdiff_parameters *parameters,
    const gitjournal_xdiff_output *output, gitjournal_xdiff_callbacks *callbacks);

static int gitjournal_add_xdiff_hunk(long old_start, long old_count, long new_start, long new_count, void *payload) {
  (void)old_start;
  (void)new_start;
  size_t *counts = payload;
  counts[0] += (size_t)new_count;
  counts[1] += (size_t)old_count;
  return 0;
}
#endif

/// 1 when line changes are counted by calling libgit2's xdiff directly, 0 when through its public diff API.
static inline int gitjournal_counts_lines_through_xdiff(void) {
#ifdef GITJOURNAL_DIRECT_XDIFF
  return 1;
#else
  return 0;
#endif
}

/// Lines added and deleted between two texts by git's xdiff with git's defaults (Myers, no whitespace options),
/// counted from its hunks with no context lines. 0, or -1 when the texts are too large or memory runs out.
static inline int gitjournal_count_line_changes(
    const char *old_text, size_t old_size, const char *new_text, size_t new_size, size_t *insertions,
    size_t *deletions) {
#ifdef GITJOURNAL_DIRECT_XDIFF
  *insertions = 0;
  *deletions = 0;
  if ((int64_t)old_size > GITJOURNAL_LARGEST_DIFFED_TEXT || (int64_t)new_size > GITJOURNAL_LARGEST_DIFFED_TEXT) {
    return -1;
  }
  gitjournal_xdiff_text old_file = {(char *)old_text, (long)old_size};
  gitjournal_xdiff_text new_file = {(char *)new_text, (long)new_size};
  gitjournal_xdiff_parameters parameters = {0};
  size_t counts[2] = {0, 0};
  gitjournal_xdiff_output output = {0};
  output.hunk_func = gitjournal_add_xdiff_hunk;
  gitjournal_xdiff_callbacks callbacks = {0};
  callbacks.priv = counts;
  int result = xdl_diff(&old_file, &new_file, &parameters, &output, &callbacks);
  *insertions = counts[0];
  *deletions = counts[1];
  return result;
#else
  return gitjournal_count_line_changes_public(old_text, old_size, new_text, new_size, insertions, deletions);
#endif
}

#endif
