#ifndef GITJOURNAL_CLIBGIT2_SHIM_H
#define GITJOURNAL_CLIBGIT2_SHIM_H

#include <git2.h>
#include <git2/sys/repository.h>
#include <git2/sys/odb_backend.h>
#include <stdlib.h>
// zlib, which libgit2 is linked with and git compresses objects with: its bound on a compressed size limits how
// much of a pack entry GitReader's pack reader reads (libdeflate inflates it).
#include <zlib.h>

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


/// Reads one object for `gitjournal_reader_backend`: fills `data` (from `git_odb_backend_data_alloc`), `size`
/// and `type`, or returns GIT_ENOTFOUND.
typedef int (*gitjournal_object_reader)(
    void *context, const git_oid *id, void **data, size_t *size, git_object_t *type, git_odb_backend *backend);

/// An object database backend that reads through gitjournal's own pack reader, so that blobs looked up through
/// it come with their ids (git_diff_blobs then hashes nothing) without libgit2's pack locks.
typedef struct {
  git_odb_backend parent;
  gitjournal_object_reader reader;
  void *context;
} gitjournal_reader_backend;

static int gitjournal_reader_backend_read(
    void **data, size_t *size, git_object_t *type, git_odb_backend *backend, const git_oid *id) {
  gitjournal_reader_backend *self = (gitjournal_reader_backend *)backend;
  return self->reader(self->context, id, data, size, type, backend);
}

static void gitjournal_reader_backend_free(git_odb_backend *backend) { free(backend); }

/// A repository handle that has only an object database: `reader` first, then the objects folder's loose
/// objects and packs (what the reader does not read), as libgit2 reads an alternate.
static inline int gitjournal_open_object_reader(
    git_repository **out, const char *objects_folder, gitjournal_object_reader reader, void *context) {
  git_odb *odb = NULL;
  int result = git_odb_new(&odb);
  if (result != 0) return result;
  gitjournal_reader_backend *backend = calloc(1, sizeof *backend);
  if (backend == NULL) {
    git_odb_free(odb);
    return -1;
  }
  backend->parent.version = GIT_ODB_BACKEND_VERSION;
  backend->parent.read = gitjournal_reader_backend_read;
  backend->parent.free = gitjournal_reader_backend_free;
  backend->reader = reader;
  backend->context = context;
  result = git_odb_add_backend(odb, &backend->parent, 1000);
  if (result != 0) {
    free(backend);
    git_odb_free(odb);
    return result;
  }
  result = git_odb_add_disk_alternate(odb, objects_folder);
  if (result == 0) result = git_repository_wrap_odb(out, odb);
  git_odb_free(odb);
  return result;
}

#endif
