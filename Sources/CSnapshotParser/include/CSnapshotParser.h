#ifndef TB_SNAPSHOT_PARSER_H
#define TB_SNAPSHOT_PARSER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A span of UTF-8 inside the parser's last document (valid until the next parse); ptr is NULL
/// when the field is absent or not a string.
typedef struct {
    const char *ptr;
    size_t length;
} tb_text;

/// What an audit needs of one CloudKit record dictionary (Web Services format).
typedef struct {
    tb_text record_name;
    tb_text record_type;
    tb_text code;          /* fields.code.value */
    tb_text name;          /* fields.name.value */
    int64_t created_ms;    /* fields.createdAt.value, else created.timestamp */
    int has_created;
    /* Set when the creation date is present but unusable (not a number, NaN, outside
       TB_SNAPSHOT_MIN_MS...TB_SNAPSHOT_MAX_MS): has_created is then 0 and this says why. */
    const char *created_problem;
    int deleted;           /* "deleted": true */
    int code_not_string;   /* fields.code is present but its value is not a string */
} tb_snapshot_record;

/* Creation dates an audit accepts, in milliseconds since 1970: up to 9999-12-31T23:59:59.999Z.
   Anything else (1e300, a negative number) is from a broken writer, not a date. The Swift side's
   Timestamp.supportedMilliseconds; SnapshotParserAgreementTests keeps the two, and what each
   reads of a line, equal. */
#define TB_SNAPSHOT_MIN_MS 0LL
#define TB_SNAPSHOT_MAX_MS 253402300799999LL

typedef struct tb_snapshot_parser tb_snapshot_parser;

tb_snapshot_parser *tb_snapshot_parser_new(void);
void tb_snapshot_parser_free(tb_snapshot_parser *parser);

/// Parses one JSON Lines line. Returns 0 on success; otherwise a nonzero value and `*error`
/// points at a static description (invalid JSON, not an object, no recordName...).
int tb_snapshot_parse(tb_snapshot_parser *parser, const char *line, size_t length,
                      tb_snapshot_record *record, const char **error);

#ifdef __cplusplus
}
#endif

#endif
