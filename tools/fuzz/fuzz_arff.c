/* libFuzzer target: read_mulan(arff, xml).  The input is the XML text, a
 * NUL byte, then the ARFF text; without a NUL byte it is all ARFF and the
 * last attribute is the label (read_mulan(labels = 1)).
 *
 * The XML is read in R (read_mulan_xml(), a regular expression); here it
 * only decides which attributes are labels, by the same rule: the name="..."
 * (or '...') of every <label ...> tag outside comments. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "arff_core.h"
#include "arff_layout.h"
#include <R.h>
#include "r_shim.h"

static int word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

static int xml_labels(const char *x, size_t len, label_names *out)
{
    out->n = 0;
    out->name = (char **) R_alloc(len / 8 + 1, sizeof(char *));
    const char *p = x, *end = x + len;
    while (p < end) {
        if (end - p >= 4 && memcmp(p, "<!--", 4) == 0) {
            const char *q = p + 4;
            while (q + 3 <= end && memcmp(q, "-->", 3) != 0) q++;
            if (q + 3 > end) break;  /* an unclosed comment: not removed by R, kept here too */
            p = q + 3;
            continue;
        }
        if (!(end - p >= 6 && memcmp(p, "<label", 6) == 0 && (end - p == 6 || !word_char(p[6])))) {
            p++;
            continue;
        }
        const char *tag = p, *close = memchr(p, '>', (size_t) (end - p));
        if (!close) break;
        const char *name = NULL;
        size_t nlen = 0;
        for (const char *q = tag + 1; q + 4 <= close && !name; q++) {
            if (memcmp(q, "name", 4) != 0 || word_char(q[-1])) continue;
            const char *r = q + 4;
            while (r < close && is_space(*r)) r++;
            if (r >= close || *r != '=') continue;
            r++;
            while (r < close && is_space(*r)) r++;
            if (r >= close || (*r != '"' && *r != '\'')) continue;
            const char *e = memchr(r + 1, *r, (size_t) (close - r - 1));
            if (!e) continue;
            name = r + 1;
            nlen = (size_t) (e - name);
        }
        if (!name || out->n == (int) (len / 8)) return 0;  /* R: a <label> without a name */
        char *s = R_alloc(nlen + 1, 1);
        memcpy(s, name, nlen);
        s[nlen] = '\0';
        out->name[out->n++] = s;
        p = close + 1;
    }
    if (out->n == 0) return 0;
    for (int j = 0; j < out->n; j++)  /* R: a label named twice */
        for (int k = 0; k < j; k++)
            if (strcmp(out->name[j], out->name[k]) == 0) return 0;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *buf = (const char *) data;
    if (!shim_begin()) {
        const char *nul = memchr(buf, '\0', size);
        if (nul) {
            label_names xml;
            if (xml_labels(buf, (size_t) (nul - buf), &xml))
                fuzz_read_arff(nul + 1, size - (size_t) (nul - buf) - 1, &xml);
        } else {
            /* labels = 1: the header's last attribute, by name */
            arff_header h;
            parse_status st = {0};
            if (arff_read_header(buf, size, &h, &st) == PARSE_OK && h.nattr >= 2) {
                char *last = h.attr[h.nattr - 1].name;
                label_names one = {&last, 1};
                fuzz_read_arff(buf, size, &one);
            }
        }
    }
    fuzz_arff_release();
    shim_end();
    return 0;
}
