// Debian's libgit2 is built with mbedTLS and, inside git_libgit2_init(), parses every certificate in the
// system's CA bundle: about 50 million instructions, most of a post-commit hook's budget. gitjournal only
// reads local repositories and never opens a TLS connection through libgit2, so the executable provides
// these two functions itself; the dynamic linker binds libgit2's calls to them (an executable's symbols come
// first). Were libgit2 ever asked for HTTPS, it would find no trusted certificate and refuse the
// connection: this fails closed, never open. Builds of libgit2 that use OpenSSL or SecureTransport never
// call them.
#include "FastStart.h"

struct mbedtls_x509_crt;

int mbedtls_x509_crt_parse_file(struct mbedtls_x509_crt *chain, const char *path) {
  (void)chain;
  (void)path;
  return 0;
}

int mbedtls_x509_crt_parse_path(struct mbedtls_x509_crt *chain, const char *path) {
  (void)chain;
  (void)path;
  return 0;
}

void gitjournal_fast_start_linked(void) {}
