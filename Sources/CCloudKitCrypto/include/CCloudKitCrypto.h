#ifndef TRIBEBOARD_CCLOUDKITCRYPTO_H
#define TRIBEBOARD_CCLOUDKITCRYPTO_H
#include <stddef.h>

/// CloudKit server-to-server signing through the system's OpenSSL (libcrypto). Every function
/// returns 0 on success; otherwise non-zero with a NUL-terminated reason in `error`.

/// SHA-256 of `data`, base64-encoded into `out` (at least 45 bytes).
int tb_sha256_base64(const void *data, size_t length, char *out, size_t out_size);

/// Signs `message` with the P-256 private key in `pem` (SEC1 or PKCS#8): ECDSA over SHA-256,
/// DER-encoded into `signature` (at least 80 bytes); `signature_length` receives its size.
int tb_ecdsa_p256_sign(const char *pem, size_t pem_length, const void *message, size_t message_length,
                       unsigned char *signature, size_t *signature_length, char *error, size_t error_size);

/// Verifies a DER signature of `message` against a P-256 public key (PEM, SubjectPublicKeyInfo)
/// or private key (its public half is used). Returns 0 when valid, 1 when not, 2 on bad input.
int tb_ecdsa_p256_verify(const char *pem, size_t pem_length, const void *message, size_t message_length,
                         const unsigned char *signature, size_t signature_length, char *error, size_t error_size);

/// The public half of a P-256 private key as PEM (SubjectPublicKeyInfo) into `out`.
int tb_ecdsa_p256_public_pem(const char *private_pem, size_t pem_length, char *out, size_t out_size,
                             char *error, size_t error_size);

#endif
