#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H
/* libssl (TLS) from Debian's libssl-dev. Swift cannot call function-like macros, so the few
   OpenSSL macros Parley needs are wrapped below as inline functions. */
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/bio.h>
#include <openssl/x509.h>
#include <openssl/pem.h>

/* TLS 1.2 is the oldest version either role accepts. */
static inline int copenssl_ctx_require_tls12(SSL_CTX *ctx) {
    return SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
}

/* Options every context gets: no renegotiation (a CPU-cost lever for a peer), no compression
   (CRIME), and buffers released while a connection is idle (most WebSockets are). */
static inline void copenssl_ctx_harden(SSL_CTX *ctx) {
    SSL_CTX_set_options(ctx, SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION | SSL_OP_CIPHER_SERVER_PREFERENCE);
    SSL_CTX_set_mode(ctx, SSL_MODE_RELEASE_BUFFERS);
}

/* Memory BIOs report "retry" on an empty read instead of EOF, which is what a sans-I/O engine
   wants: no bytes yet is not the end of the stream. */
static inline void copenssl_bio_mem_retry_on_empty(BIO *bio) { BIO_set_mem_eof_return(bio, -1); }

static inline int copenssl_set_server_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

/* A certificate's serial number in upper-case hex (free with copenssl_free), or NULL. */
static inline char *copenssl_serial_hex(const X509 *certificate) {
    BIGNUM *number = ASN1_INTEGER_to_BN(X509_get0_serialNumber(certificate), NULL);
    if (number == NULL) return NULL;
    char *hex = BN_bn2hex(number);
    BN_free(number);
    return hex;
}

static inline void copenssl_free(void *pointer) { OPENSSL_free(pointer); }
#endif
