/* read_back.c — result rows from their JSON, driven by the field tables
 * (read_back.h): each field with a store (fields.h) is put where its
 * getter reads it; a computed field (model, the errors against a measured
 * log) is skipped, being computed again when written.
 *
 * Invariant: a row written, read back and written again is the same text
 * (tests/test_report.c checks it for every stored field). */
#include "report/read_back.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/fields.h"

static bool wrong(const field *f, const char *expected, char *why, int why_size)
{
    snprintf(why, (size_t)why_size, "\"%s\" is not %s", f->key, expected);
    return false;
}

/* The cases a row ran with (itself left out) as ROW's block: the first and how many. */
static bool store_cases(json_object *list, result_row *row)
{
    if (json_object_get_type(list) != json_type_array) return false;
    int first = row->case_index, last = row->case_index;
    for (size_t i = 0; i < json_object_array_length(list); i++) {
        json_object *item = json_object_array_get_idx(list, i);
        if (json_object_get_type(item) != json_type_int) return false;
        int c = json_object_get_int(item);
        first = c < first ? c : first;
        last = c > last ? c : last;
    }
    row->block_first = first;
    row->block_count = last - first + 1;
    return true;
}

/* VALUE of field F into RECORD (ROW: the result row, for the cases). */
static bool store(const field *f, json_object *value, void *record, result_row *row, char *why, int why_size)
{
    char *at = (char *)record + f->store.offset;
    json_type type = json_object_get_type(value);
    bool number = type == json_type_int || type == json_type_double;
    switch (f->store.kind) {
    case STORE_INT:
        if (type != json_type_int) return wrong(f, "a whole number", why, why_size);
        *(int *)at = json_object_get_int(value);
        return true;
    case STORE_LONG:
        if (!number) return wrong(f, "a number", why, why_size);
        *(long *)at = (long)json_object_get_int64(value);
        return true;
    case STORE_DOUBLE:
        if (!number && type != json_type_null) return wrong(f, "a number or null", why, why_size);
        *(double *)at = number ? json_object_get_double(value) : NAN;
        return true;
    case STORE_BOOL:
        if (type != json_type_boolean) return wrong(f, "true or false", why, why_size);
        *(bool *)at = json_object_get_boolean(value);
        return true;
    case STORE_TEXT: {
        const char *text = type == json_type_null ? "" : json_object_get_string(value);
        if (type != json_type_string && type != json_type_null) return wrong(f, "a string", why, why_size);
        if (strlen(text) >= f->store.size) return wrong(f, "a string short enough for collsim's record", why, why_size);
        memcpy(at, text, strlen(text) + 1);
        return true;
    }
    case STORE_PRIMITIVE:
        if (type != json_type_string || !primitive_from_name(json_object_get_string(value), (primitive *)at))
            return wrong(f, "a primitive's name", why, why_size);
        return true;
    case STORE_CASES:
        return store_cases(value, row) || wrong(f, "a list of case numbers", why, why_size);
    case STORE_DOWN:
        if (type != json_type_string) return wrong(f, "up or down", why, why_size);
        *(bool *)at = strcmp(json_object_get_string(value), "down") == 0;
        return true;
    case STORE_KNOWN:
        if (type != json_type_boolean && type != json_type_null) return wrong(f, "true, false or null", why, why_size);
        *(int *)at = type == json_type_null ? -1 : json_object_get_boolean(value);
        return true;
    default: return true;
    }
}

/* Every stored field of SET that OBJECT has, into RECORD. */
static bool read_fields(const field_set *set, json_object *object, void *record, result_row *row, char *why, int why_size)
{
    if (json_object_get_type(object) != json_type_object) {
        snprintf(why, (size_t)why_size, "a record is not a JSON object");
        return false;
    }
    for (int i = 0; i < set->count; i++) {
        const field *f = &set->fields[i];
        json_object *value;
        if (f->store.kind == STORE_NONE || !(f->formats & IN_JSON) || !json_object_object_get_ex(object, f->key, &value))
            continue;
        if (!store(f, value, record, row, why, why_size)) return false;
    }
    return true;
}

/* OBJECT's list KEY (absent: none) into COUNT records of SET, SIZE bytes apart, at most MOST. */
static bool read_list(json_object *object, const char *key, const field_set *set, void *records, size_t size, int most,
                      int *count, result_row *row, char *why, int why_size)
{
    json_object *list;
    *count = 0;
    if (!json_object_object_get_ex(object, key, &list)) return true;
    if (json_object_get_type(list) != json_type_array || (int)json_object_array_length(list) > most) {
        snprintf(why, (size_t)why_size, "\"%s\" is not a list of at most %d records", key, most);
        return false;
    }
    for (size_t i = 0; i < json_object_array_length(list); i++) {
        void *record = (char *)records + i * size;
        if (!read_fields(set, json_object_array_get_idx(list, i), record, row, why, why_size)) return false;
        ++*count;
    }
    return true;
}

bool report_read_result(json_object *object, bool simulated, result_row *row, char *why, int why_size)
{
    memset(row, 0, sizeof *row);
    row->simulated = simulated;
    row->background_load = NAN;
    row->block_count = 1;
    if (!read_fields(&result_fields, object, row, row, why, why_size)) return false;
    if (!json_object_object_get_ex(object, "concurrent_with", NULL)) row->block_first = row->case_index;
    return read_list(object, "terms", &term_fields, row->terms, sizeof *row->terms, REPORT_MAX_TERMS, &row->term_count, row,
                     why, why_size) &&
           read_list(object, "hot_links", &link_fields, row->hot, sizeof *row->hot, REPORT_HOT_LINKS, &row->hot_count, row,
                     why, why_size);
}
