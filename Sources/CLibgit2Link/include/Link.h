#ifndef GITJOURNAL_LIBGIT2_LINK_H
#define GITJOURNAL_LIBGIT2_LINK_H

/// Nothing to call: linking this target is what matters (see Link.c).
void gitjournal_libgit2_linked(void);

#endif
