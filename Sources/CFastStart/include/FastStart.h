#ifndef GITJOURNAL_FAST_START_H
#define GITJOURNAL_FAST_START_H

/// Nothing to call: linking this target is what matters (see FastStart.c).
void gitjournal_fast_start_linked(void);

#endif
