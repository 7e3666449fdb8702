// Remote snapshot lines through simdjson: Foundation's JSONDecoder needs about 11 µs a record on
// this machine, which alone would spend the audit's whole budget on a million-record snapshot;
// simdjson's DOM parser needs under 1 µs.
#include "CSnapshotParser.h"
#include <simdjson.h>
#include <cmath>
#include <new>

struct tb_snapshot_parser {
    simdjson::dom::parser parser;
};

extern "C" tb_snapshot_parser *tb_snapshot_parser_new(void) {
    return new (std::nothrow) tb_snapshot_parser();
}

extern "C" void tb_snapshot_parser_free(tb_snapshot_parser *parser) {
    delete parser;
}

static tb_text text_of(simdjson::dom::element element) {
    std::string_view view;
    if (element.get(view) != simdjson::SUCCESS) return tb_text{nullptr, 0};
    return tb_text{view.data(), view.size()};
}

static tb_text field_text(simdjson::dom::object fields, const char *name, int *not_string) {
    simdjson::dom::element field;
    if (fields[name].get(field) != simdjson::SUCCESS) return tb_text{nullptr, 0};
    simdjson::dom::element value;
    if (field["value"].get(value) != simdjson::SUCCESS) {
        if (not_string) *not_string = 1;
        return tb_text{nullptr, 0};
    }
    tb_text text = text_of(value);
    if (text.ptr == nullptr && not_string) *not_string = 1;
    return text;
}

// A creation date in range, or why not. A double is range-checked before the conversion: casting
// 1e300 or NaN to int64_t is undefined behaviour.
static const char *timestamp_of(simdjson::dom::element element, int64_t *out, bool app_field) {
    const char *out_of_range = app_field ? "fields.createdAt.value is out of range" : "created.timestamp is out of range";
    int64_t integer;
    if (element.get(integer) == simdjson::SUCCESS) {
        if (integer < TB_SNAPSHOT_MIN_MS || integer > TB_SNAPSHOT_MAX_MS) return out_of_range;
        *out = integer;
        return nullptr;
    }
    double real;
    if (element.get(real) == simdjson::SUCCESS) {
        if (!std::isfinite(real) || real < double(TB_SNAPSHOT_MIN_MS) || real > double(TB_SNAPSHOT_MAX_MS)) return out_of_range;
        *out = static_cast<int64_t>(real);
        return nullptr;
    }
    return app_field ? "fields.createdAt.value is not a number" : "created.timestamp is not a number";
}

extern "C" int tb_snapshot_parse(tb_snapshot_parser *parser, const char *line, size_t length,
                                 tb_snapshot_record *record, const char **error) {
    *record = tb_snapshot_record{};
    simdjson::dom::element document;
    // realloc_if_needed: the line is copied into simdjson's padded buffer (lines are short).
    auto code = parser->parser.parse(line, length, true).get(document);
    if (code != simdjson::SUCCESS) {
        *error = simdjson::error_message(code);
        return 1;
    }
    simdjson::dom::object object;
    if (document.get(object) != simdjson::SUCCESS) {
        *error = "not a JSON object";
        return 2;
    }
    simdjson::dom::element element;
    if (object["serverErrorCode"].get(element) == simdjson::SUCCESS) {
        *error = "an error dictionary, not a record";
        return 3;
    }
    // An empty name is a record that cannot be named: the audit reports it as a live read would
    // (RemoteRecordSummary), not as a line that is not a record.
    if (object["recordName"].get(element) != simdjson::SUCCESS || (record->record_name = text_of(element)).ptr == nullptr) {
        *error = "no recordName string";
        return 4;
    }
    if (object["recordType"].get(element) == simdjson::SUCCESS) record->record_type = text_of(element);
    bool deleted = false;
    if (object["deleted"].get(element) == simdjson::SUCCESS && element.get(deleted) == simdjson::SUCCESS) {
        record->deleted = deleted ? 1 : 0;
    }
    simdjson::dom::object fields;
    if (object["fields"].get(element) == simdjson::SUCCESS && element.get(fields) == simdjson::SUCCESS) {
        record->code = field_text(fields, "code", &record->code_not_string);
        record->name = field_text(fields, "name", nullptr);
        simdjson::dom::element value;
        if (fields["createdAt"].get(element) == simdjson::SUCCESS) {
            // The app's own field: when it is unusable (no value, null, not a number, out of
            // range) the date is unknown (no fallback to the server's creation time, which is
            // another date), as the Remote module's decoder (RecordCreated) reads it.
            if (element["value"].get(value) != simdjson::SUCCESS || value.is_null()) {
                record->created_problem = "fields.createdAt has no value";
            } else if ((record->created_problem = timestamp_of(value, &record->created_ms, true)) == nullptr) {
                record->has_created = 1;
            }
            return 0;
        }
    }
    if (object["created"]["timestamp"].get(element) == simdjson::SUCCESS
        && (record->created_problem = timestamp_of(element, &record->created_ms, false)) == nullptr) {
        record->has_created = 1;
    }
    return 0;
}
