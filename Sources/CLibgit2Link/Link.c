// Where libgit2 is linked statically (see Package.swift), it comes with the libraries it needs for network
// transports, which gitjournal never uses: it only reads local repositories. Some of their entry points are
// replaced here, each failing closed.
#include "Link.h"

#include <stdint.h>

// Only the static link needs these: with the shared libgit2 (macOS, or a Linux without every static archive) they
// are left out, so that nothing in the executable stands in for a shared library's functions.
#if defined(GITJOURNAL_STATIC_LIBGIT2)

#include <git2/errors.h>
// libgit2 1.8 moved `git_error_set_str` among the headers for code that extends libgit2.
#if __has_include(<git2/sys/errors.h>)
#include <git2/sys/errors.h>
#endif

// Debian's libgit2 is built with mbedTLS and, inside git_libgit2_init(), parses every certificate in the
// system's CA bundle: most of a post-commit hook's budget (docs/architecture.md, "Speed devices"). The linker sends
// libgit2's two calls that load certificates here (`--wrap`), and they load none. Were libgit2 ever asked for
// HTTPS, it would find no trusted certificate and refuse the connection.
struct mbedtls_x509_crt;

int __wrap_mbedtls_x509_crt_parse_file(struct mbedtls_x509_crt *chain, const char *path) {
  (void)chain;
  (void)path;
  return 0;
}

int __wrap_mbedtls_x509_crt_parse_path(struct mbedtls_x509_crt *chain, const char *path) {
  (void)chain;
  (void)path;
  return 0;
}

// mbedTLS's own setup in git_libgit2_init() (its entropy sources, a random generator seeded from them, an empty
// certificate chain) costs every hook work for connections gitjournal never makes (the same table). It is
// skipped, and the two calls that would make a TLS stream on that setup refuse instead, naming the reason: with
// no setup there is no TLS to offer, and refusing keeps an unseeded generator from ever being used.
struct git_stream;

int __wrap_git_mbedtls_stream_global_init(void) { return 0; }

static int gitjournal_refuse_tls(struct git_stream **out) {
  if (out) *out = 0;
  git_error_set_str(GIT_ERROR_SSL, "gitjournal reads local repositories only: TLS is not available");
  return -1;
}

int __wrap_git_tls_stream_new(struct git_stream **out, const char *host, const char *port) {
  (void)host;
  (void)port;
  return gitjournal_refuse_tls(out);
}

int __wrap_git_tls_stream_wrap(struct git_stream **out, struct git_stream *in, const char *host) {
  (void)in;
  (void)host;
  return gitjournal_refuse_tls(out);
}

// GIT_OPT_SET_SSL_CERT_LOCATIONS would load certificates into the configuration that was never set up: refused too.
int __wrap_git_mbedtls__set_cert_location(const char *file, const char *path) {
  (void)file;
  (void)path;
  return gitjournal_refuse_tls(0);
}

// libgit2's SSH setup in git_libgit2_init() starts libssh2, which initializes OpenSSL and loads its engines: a
// cost to every hook (the same table), for a transport gitjournal never uses. It is skipped, and the SSH
// transport refuses instead, naming the reason. (libssh2 would also set itself up on first use; refusing keeps
// gitjournal from ever opening a connection.)
struct git_smart_subtransport;
struct git_transport;

int __wrap_git_transport_ssh_global_init(void) { return 0; }

int __wrap_git_smart_subtransport_ssh(struct git_smart_subtransport **out, struct git_transport *owner, void *param) {
  (void)owner;
  (void)param;
  if (out) *out = 0;
  git_error_set_str(GIT_ERROR_SSH, "gitjournal reads local repositories only: SSH is not available");
  return -1;
}

// GSSAPI (Kerberos), which libgit2 calls only to answer an HTTP server's "Negotiate" challenge. Debian ships no
// static Kerberos, and its shared libraries cost every start five more libraries to load and relocate. These
// stand-ins fail every call with GSS_S_FAILURE, so such authentication is refused, never attempted.
typedef uint32_t gitjournal_gss_status;
#define GITJOURNAL_GSS_S_FAILURE (((gitjournal_gss_status)13) << 16)

static gitjournal_gss_status gitjournal_gss_refuse(gitjournal_gss_status *minor_status) {
  if (minor_status) *minor_status = 0;
  return GITJOURNAL_GSS_S_FAILURE;
}

void *GSS_C_NT_HOSTBASED_SERVICE = 0;

gitjournal_gss_status gss_import_name(gitjournal_gss_status *minor, const void *name, const void *type, void **out) {
  (void)name;
  (void)type;
  if (out) *out = 0;
  return gitjournal_gss_refuse(minor);
}

gitjournal_gss_status gss_init_sec_context(
    gitjournal_gss_status *minor, void *credential, void **context, void *target, void *mechanism, uint32_t flags,
    uint32_t lifetime, void *bindings, const void *input, void **actual_mechanism, void *output, uint32_t *returned_flags,
    uint32_t *returned_lifetime) {
  (void)credential;
  (void)context;
  (void)target;
  (void)mechanism;
  (void)flags;
  (void)lifetime;
  (void)bindings;
  (void)input;
  (void)actual_mechanism;
  (void)output;
  (void)returned_flags;
  (void)returned_lifetime;
  return gitjournal_gss_refuse(minor);
}

gitjournal_gss_status gss_indicate_mechs(gitjournal_gss_status *minor, void **mechanisms) {
  if (mechanisms) *mechanisms = 0;
  return gitjournal_gss_refuse(minor);
}

gitjournal_gss_status gss_display_status(
    gitjournal_gss_status *minor, uint32_t status, int type, const void *mechanism, uint32_t *context, void *text) {
  (void)status;
  (void)type;
  (void)mechanism;
  (void)context;
  (void)text;
  return gitjournal_gss_refuse(minor);
}

// Releasing what was never made succeeds: libgit2 calls these while cleaning up after a refusal.
gitjournal_gss_status gss_release_buffer(gitjournal_gss_status *minor, void *buffer) {
  (void)buffer;
  if (minor) *minor = 0;
  return 0;
}

gitjournal_gss_status gss_release_name(gitjournal_gss_status *minor, void **name) {
  (void)name;
  if (minor) *minor = 0;
  return 0;
}

gitjournal_gss_status gss_release_oid_set(gitjournal_gss_status *minor, void **set) {
  (void)set;
  if (minor) *minor = 0;
  return 0;
}

gitjournal_gss_status gss_delete_sec_context(gitjournal_gss_status *minor, void **context, void *output) {
  (void)context;
  (void)output;
  if (minor) *minor = 0;
  return 0;
}

#endif

void gitjournal_libgit2_linked(void) {}
