#include "CCloudKitCrypto.h"

#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/pem.h>
#include <stdio.h>
#include <string.h>

/* libcrypto frees its global state from an atexit handler by default. A process that exits while
 * another thread is still hashing or signing (a request of a run that is ending) then crashes in
 * libcrypto with SIGSEGV: seen once under load, migrate exiting with status 11 (kernel: segfault in
 * libcrypto.so.3 on a dispatch thread). Initialised first, before libcurl's own initialisation,
 * without that handler: the process's memory goes away with it at exit anyway. */
__attribute__((constructor)) static void tb_crypto_init(void) {
    OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, NULL);
}

static int fail(char *error, size_t error_size, const char *what) {
    if (error != NULL && error_size > 0) {
        unsigned long code = ERR_get_error();
        if (code != 0) {
            char reason[160];
            ERR_error_string_n(code, reason, sizeof reason);
            snprintf(error, error_size, "%s (%s)", what, reason);
        } else {
            snprintf(error, error_size, "%s", what);
        }
    }
    ERR_clear_error();
    return 1;
}

static int is_p256(EVP_PKEY *key) {
    if (EVP_PKEY_get_base_id(key) != EVP_PKEY_EC) return 0;
    char group[64];
    size_t length = 0;
    if (!EVP_PKEY_get_utf8_string_param(key, "group", group, sizeof group, &length)) return 0;
    return strcmp(group, "prime256v1") == 0 || strcmp(group, "P-256") == 0;
}

/* Never asks for a passphrase: OpenSSL's default callback prompts on the terminal, which hangs a
   cron job. Without a passphrase an encrypted key simply fails to load (see pem_is_encrypted). */
static int no_passphrase(char *buffer, int size, int rwflag, void *user) {
    (void)buffer; (void)size; (void)rwflag; (void)user;
    return -1;
}

static int pem_is_encrypted(const char *pem, size_t pem_length) {
    static const char *marks[] = {"ENCRYPTED PRIVATE KEY", "Proc-Type: 4,ENCRYPTED"};
    for (size_t m = 0; m < sizeof marks / sizeof marks[0]; m++) {
        size_t mark_length = strlen(marks[m]);
        for (size_t i = 0; i + mark_length <= pem_length; i++) {
            if (memcmp(pem + i, marks[m], mark_length) == 0) return 1;
        }
    }
    return 0;
}

static EVP_PKEY *read_key(const char *pem, size_t pem_length, int want_private) {
    BIO *bio = BIO_new_mem_buf(pem, (int)pem_length);
    if (bio == NULL) return NULL;
    EVP_PKEY *key = want_private ? PEM_read_bio_PrivateKey(bio, NULL, no_passphrase, NULL)
                                 : PEM_read_bio_PUBKEY(bio, NULL, no_passphrase, NULL);
    BIO_free(bio);
    return key;
}

int tb_sha256_base64(const void *data, size_t length, char *out, size_t out_size) {
    unsigned char digest[32];
    unsigned int digest_length = 0;
    if (out_size < 45) return 1;
    if (!EVP_Digest(data, length, digest, &digest_length, EVP_sha256(), NULL)) return 1;
    EVP_EncodeBlock((unsigned char *)out, digest, (int)digest_length);
    return 0;
}

int tb_ecdsa_p256_sign(const char *pem, size_t pem_length, const void *message, size_t message_length,
                       unsigned char *signature, size_t *signature_length, char *error, size_t error_size) {
    EVP_PKEY *key = read_key(pem, pem_length, 1);
    if (key == NULL) {
        return fail(error, error_size, pem_is_encrypted(pem, pem_length)
            ? "the key is protected by a passphrase, which an unattended run cannot type; export it without one (openssl ec -in key.pem -out plain.pem) and keep that file mode 600"
            : "the key file holds no readable private key");
    }
    if (!is_p256(key)) {
        EVP_PKEY_free(key);
        return fail(error, error_size, "the key is not an EC P-256 (prime256v1) key");
    }
    int status = 1;
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    if (context != NULL
        && EVP_DigestSignInit(context, NULL, EVP_sha256(), NULL, key) == 1
        && EVP_DigestSign(context, signature, signature_length, message, message_length) == 1) {
        status = 0;
    } else {
        fail(error, error_size, "signing failed");
    }
    EVP_MD_CTX_free(context);
    EVP_PKEY_free(key);
    return status;
}

int tb_ecdsa_p256_verify(const char *pem, size_t pem_length, const void *message, size_t message_length,
                         const unsigned char *signature, size_t signature_length, char *error, size_t error_size) {
    EVP_PKEY *key = read_key(pem, pem_length, 0);
    if (key == NULL) {
        ERR_clear_error();
        key = read_key(pem, pem_length, 1);
    }
    if (key == NULL || !is_p256(key)) {
        EVP_PKEY_free(key);
        fail(error, error_size, "not an EC P-256 key");
        return 2;
    }
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    int result = 2;
    if (context != NULL && EVP_DigestVerifyInit(context, NULL, EVP_sha256(), NULL, key) == 1) {
        result = EVP_DigestVerify(context, signature, signature_length, message, message_length) == 1 ? 0 : 1;
    }
    ERR_clear_error();
    EVP_MD_CTX_free(context);
    EVP_PKEY_free(key);
    return result;
}

int tb_ecdsa_p256_public_pem(const char *private_pem, size_t pem_length, char *out, size_t out_size,
                             char *error, size_t error_size) {
    EVP_PKEY *key = read_key(private_pem, pem_length, 1);
    if (key == NULL) return fail(error, error_size, "no readable private key");
    BIO *bio = BIO_new(BIO_s_mem());
    int status = 1;
    if (bio != NULL && PEM_write_bio_PUBKEY(bio, key) == 1) {
        char *data = NULL;
        long length = BIO_get_mem_data(bio, &data);
        if (length > 0 && (size_t)length < out_size) {
            memcpy(out, data, (size_t)length);
            out[length] = '\0';
            status = 0;
        } else {
            fail(error, error_size, "public key does not fit");
        }
    } else {
        fail(error, error_size, "cannot write the public key");
    }
    BIO_free(bio);
    EVP_PKEY_free(key);
    return status;
}
