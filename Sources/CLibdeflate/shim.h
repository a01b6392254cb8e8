#ifndef GITJOURNAL_CLIBDEFLATE_SHIM_H
#define GITJOURNAL_CLIBDEFLATE_SHIM_H

// libdeflate inflates a whole zlib stream into a buffer of known size in one call, about twice as fast as zlib's
// streaming inflate on git's pack entries, whose inflated sizes their headers give.
#include <libdeflate.h>

#endif
