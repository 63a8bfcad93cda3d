/* SPDX-License-Identifier: Zlib */
/* Tiled maps: reading the XML. Places of nodes and attribute values in the source text
 * (libxml2 gives lines only), located errors, attribute and <property> readers, and the
 * parse of a document (no DTD, the first well-formedness error, full line numbers), and
 * file paths named in it, relative to the map's folder. */
#include <libxml/SAX2.h>
#include <libxml/parser.h>
#include <libxml/xmlversion.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tiled/tmx_priv.h"

/* ---- places ---------------------------------------------------------------------------------- */

/* The line on which n's start tag ends (an attribute: its element's). Elements carry the
 * line pt__tmx_doc_parse recorded; text nodes past line 65535 carry theirs in psvi, which
 * xmlGetLineNo reads. */
long pt__tmx_node_line(xmlNodePtr n) {
    if (n && n->type == XML_ATTRIBUTE_NODE) n = n->parent;
    if (!n) return -1;
    if (n->type == XML_ELEMENT_NODE && n->_private) return (long)(intptr_t)n->_private;
    return xmlGetLineNo(n);
}

static int build_lines(doc *d) {
    if (d->lines) return 1;
    size_t n = 1;
    for (size_t i = 0; i < d->text.len; i++) n += d->text.data[i] == '\n';
    d->lines = PT_MALLOC(sizeof *d->lines * n);
    if (!d->lines) return 0;
    d->nlines = 0;
    d->lines[d->nlines++] = 0;
    for (size_t i = 0; i < d->text.len; i++)
        if (d->text.data[i] == '\n') d->lines[d->nlines++] = i + 1;
    return 1;
}

place pt__tmx_place_of_offset(const doc *d, size_t off) {
    int lo = 0, hi = d->nlines - 1;
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (d->lines[mid] <= off) lo = mid;
        else hi = mid - 1;
    }
    return (place){lo + 1, (int)(off - d->lines[lo]) + 1};
}

static size_t line_end(const doc *d, int line) { /* offset just past a 1-based line's text */
    return line < d->nlines ? d->lines[line] - 1 : d->text.len;
}

static int is_name_end(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '/' || c == '>'; }

/* Offset of "<name" in [from, to), or (size_t)-1. */
static size_t find_tag(const doc *d, const char *name, size_t from, size_t to) {
    size_t n = strlen(name);
    for (size_t i = from; i < to; i++) {
        if (d->text.data[i] != '<' || i + 1 + n > d->text.len) continue;
        if (memcmp(d->text.data + i + 1, name, n) != 0) continue;
        if (i + 1 + n == d->text.len || is_name_end(d->text.data[i + 1 + n])) return i;
    }
    return (size_t)-1;
}

/* How many elements named like n, whose start tags end on n's line, come before n in
 * document order: which of several tags on one line is n's. */
static int same_line_rank(xmlNodePtr n) {
    long line = pt__tmx_node_line(n);
    int rank = 0;
    xmlNodePtr cur = xmlDocGetRootElement(n->doc);
    while (cur && cur != n) {
        if (cur->type == XML_ELEMENT_NODE && xmlStrEqual(cur->name, n->name) && pt__tmx_node_line(cur) == line) rank++;
        if (cur->type == XML_ELEMENT_NODE && cur->children) cur = cur->children;
        else {
            while (cur && !cur->next) cur = cur->parent;
            if (cur) cur = cur->next;
        }
    }
    return rank;
}

/* Offset of n's start tag, or (size_t)-1. Several same-named tags on its line are told
 * apart by walking the document (exact), or give up (cheap: for places kept on success). */
static size_t tag_offset_ex(doc *d, xmlNodePtr n, int exact) {
    long ln = pt__tmx_node_line(n);
    if (n->type != XML_ELEMENT_NODE || ln <= 0 || !build_lines(d) || ln > d->nlines) return (size_t)-1;
    const char *name = (const char *)n->name;
    size_t ls = d->lines[ln - 1], le = line_end(d, (int)ln);
    if (le - ls > SCAN_LINE_MAX) return (size_t)-1;
    int count = 0;
    for (size_t at = find_tag(d, name, ls, le); at != (size_t)-1; at = find_tag(d, name, at + 1, le)) count++;
    size_t tag = (size_t)-1;
    if (count > 1 && !exact) return (size_t)-1;
    if (count >= 1) {
        int rank = count == 1 ? 0 : same_line_rank(n);
        tag = find_tag(d, name, ls, le);
        for (int i = 0; i < rank && tag != (size_t)-1; i++) tag = find_tag(d, name, tag + 1, le);
    } else { /* a start tag spread over several lines: the nearest one above */
        for (long l = ln - 1; l >= 1 && l >= ln - 64 && tag == (size_t)-1; l--) {
            size_t s = d->lines[l - 1], e = line_end(d, (int)l);
            if (e - s > SCAN_LINE_MAX) break;
            for (size_t at = find_tag(d, name, s, e); at != (size_t)-1; at = find_tag(d, name, at + 1, e)) tag = at;
        }
    }
    return tag;
}

static size_t tag_offset(doc *d, xmlNodePtr n) { return tag_offset_ex(d, n, 1); }

/* Where node n is in the source: its start tag (attr NULL) or the value of attribute attr.
 * The line is always known; the column is 0 when the tag cannot be found unambiguously. */
place pt__tmx_node_place_ex(doc *d, xmlNodePtr n, const char *attr, int exact) {
    place p = {0, 0};
    if (!n) return p;
    long ln = pt__tmx_node_line(n);
    if (ln <= 0 || ln > 0x7fffffff) return p;
    p.line = (int)ln;
    size_t tag = tag_offset_ex(d, n, exact);
    if (tag == (size_t)-1) return p;
    if (!attr) return pt__tmx_place_of_offset(d, tag);
    size_t an = strlen(attr);
    const char *t = d->text.data;
    char q = 0;
    for (size_t i = tag + 1 + strlen((const char *)n->name); i < d->text.len; i++) {
        char c = t[i];
        if (q) {
            if (c == q) q = 0;
            continue;
        }
        if (c == '"' || c == '\'') { q = c; continue; }
        if (c == '>') break;
        if ((c == ' ' || c == '\t' || c == '\n' || c == '\r') && i + 1 + an < d->text.len &&
            memcmp(t + i + 1, attr, an) == 0) {
            size_t j = i + 1 + an;
            while (j < d->text.len && (t[j] == ' ' || t[j] == '\t')) j++;
            if (j >= d->text.len || t[j] != '=') continue;
            j++;
            while (j < d->text.len && (t[j] == ' ' || t[j] == '\t')) j++;
            if (j < d->text.len && (t[j] == '"' || t[j] == '\'')) j++;
            return pt__tmx_place_of_offset(d, j);
        }
    }
    return pt__tmx_place_of_offset(d, tag);
}

place pt__tmx_node_place(doc *d, xmlNodePtr n, const char *attr) { return pt__tmx_node_place_ex(d, n, attr, 1); }

/* Offset just after the '>' of n's start tag (its content's first byte), or (size_t)-1. */
size_t pt__tmx_content_offset(doc *d, xmlNodePtr n) {
    size_t tag = tag_offset(d, n);
    if (tag == (size_t)-1) return tag;
    char q = 0;
    for (size_t i = tag; i < d->text.len; i++) {
        char c = d->text.data[i];
        if (q) {
            if (c == q) q = 0;
            continue;
        }
        if (c == '"' || c == '\'') q = c;
        else if (c == '>') return i + 1;
    }
    return (size_t)-1;
}

/* ---- errors -------------------------------------------------------------------------------- */

static int vfail(loader *L, doc *d, place at, int code, const char *fmt, va_list ap) {
    char msg[PT_ERROR_MSG_MAX];
    vsnprintf(msg, sizeof msg, fmt, ap);
    L->err_doc = d;
    return pt_error_set(L->err, code, at.line, at.col, "%s", msg);
}

int pt__tmx_fail(loader *L, doc *d, place at, int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int rc = vfail(L, d, at, code, fmt, ap);
    va_end(ap);
    return rc;
}

/* An error at node n (attr NULL: its start tag; else attr's value, colofs bytes into it). */
int pt__tmx_fail_at(loader *L, doc *d, xmlNodePtr n, const char *attr, int colofs, int code, const char *fmt, ...) {
    place at = pt__tmx_node_place(d, n, attr);
    if (at.col > 0 && colofs > 0) at.col += colofs;
    va_list ap;
    va_start(ap, fmt);
    int rc = vfail(L, d, at, code, fmt, ap);
    va_end(ap);
    return rc;
}

int pt__tmx_nomem(loader *L) {
    L->err_doc = NULL;
    return pt_error_set(L->err, PT_ERR_NOMEM, 0, 0, "out of memory");
}

/* ---- XML helpers --------------------------------------------------------------------------- */

static int keep(loader *L, xmlChar *s) {
    if (L->nstrs == L->strs_cap) {
        int ncap = L->strs_cap ? L->strs_cap * 2 : 64;
        xmlChar **ns = PT_REALLOC(L->strs, sizeof *ns * (size_t)ncap);
        if (!ns) {
            xmlFree(s);
            return 0;
        }
        L->strs = ns;
        L->strs_cap = ncap;
    }
    L->strs[L->nstrs++] = s;
    return 1;
}

/* The value of attribute name, NULL when absent. Valid until the end of the load. */
const char *pt__tmx_attr(loader *L, xmlNodePtr n, const char *name) {
    xmlAttrPtr a = xmlHasProp(n, BAD_CAST name);
    if (!a || a->type != XML_ATTRIBUTE_NODE) return NULL;
    if (!a->children) return "";
    if (a->children->type == XML_TEXT_NODE && !a->children->next && a->children->content)
        return (const char *)a->children->content;
    xmlChar *s = xmlNodeListGetString(n->doc, a->children, 1);
    if (!s || !keep(L, s)) return "";
    return (const char *)s;
}

int pt__tmx_is_elem(xmlNodePtr n, const char *name) {
    return n && n->type == XML_ELEMENT_NODE && xmlStrEqual(n->name, BAD_CAST name);
}

xmlNodePtr pt__tmx_child(xmlNodePtr n, const char *name) {
    for (xmlNodePtr c = n ? n->children : NULL; c; c = c->next)
        if (pt__tmx_is_elem(c, name)) return c;
    return NULL;
}

int pt__tmx_ieq(const char *a, const char *b) { /* ASCII case-insensitive equality */
    if (!a || !b) return 0;
    for (; *a && *b; a++, b++) {
        char x = *a >= 'A' && *a <= 'Z' ? (char)(*a + 32) : *a;
        char y = *b >= 'A' && *b <= 'Z' ? (char)(*b + 32) : *b;
        if (x != y) return 0;
    }
    return *a == *b;
}

static int len_max(const char *s, int max) { /* strlen, at most max (strnlen is POSIX) */
    int n = 0;
    while (n < max && s[n]) n++;
    return n;
}

pt__tok pt__tmx_tok_of(const char *s) {
    pt__tok t = {s, len_max(s, 4096), 1, 0};
    return t;
}

/* Numbers in attributes, with the shared strict number rules (text.h): an int into *iout
 * when iout is set (lo and hi are whole), else a number into *dout; def when absent. */
static int attr_number(loader *L, doc *d, xmlNodePtr n, const char *name, double lo, double hi, double def,
                       double *dout, int *iout) {
    const char *s = pt__tmx_attr(L, n, name);
    if (!s) {
        if (iout) *iout = (int)def;
        else *dout = def;
        return PT_OK;
    }
    pt__tok t = pt__tmx_tok_of(s);
    pt_error e;
    pt_error_clear(&e);
    int rc = iout ? pt__tok_int(&t, 0, (long)lo, (long)hi, iout, &e) : pt__tok_num(&t, 0, lo, hi, dout, &e);
    if (rc < 0) return pt__tmx_fail_at(L, d, n, name, 0, rc, "%s: %s", name, e.message);
    return PT_OK;
}

int pt__tmx_attr_num(loader *L, doc *d, xmlNodePtr n, const char *name, double lo, double hi, double def, double *out) {
    return attr_number(L, d, n, name, lo, hi, def, out, NULL);
}

int pt__tmx_attr_int(loader *L, doc *d, xmlNodePtr n, const char *name, int lo, int hi, int def, int *out) {
    return attr_number(L, d, n, name, lo, hi, def, NULL, out);
}

/* Strict unsigned 32-bit decimal (gids, firstgid): 1 on success. */
int pt__tmx_parse_u32(const char *s, size_t len, uint32_t *out) {
    if (len == 0 || len > 10) return 0;
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') return 0;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    if (v > 0xFFFFFFFFu) return 0;
    *out = (uint32_t)v;
    return 1;
}

int pt__tmx_is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/* ---- properties ---------------------------------------------------------------------------- */

/* The next <property> of n's <properties> after *it (start with *it = NULL). */
int pt__tmx_next_prop(loader *L, xmlNodePtr n, xmlNodePtr *it, prop *p) {
    xmlNodePtr c;
    if (!*it) {
        xmlNodePtr props = pt__tmx_child(n, "properties");
        c = props ? props->children : NULL;
    } else c = (*it)->next;
    for (; c; c = c->next) {
        if (!pt__tmx_is_elem(c, "property")) continue;
        *it = c;
        p->node = c;
        p->name = pt__tmx_attr(L, c, "name");
        if (!p->name) p->name = "";
        p->type = pt__tmx_attr(L, c, "type");
        if (!p->type) p->type = "string";
        p->value = pt__tmx_attr(L, c, "value");
        p->has_value_attr = p->value != NULL;
        if (!p->value) { /* multi-line strings are the element's text */
            xmlChar *s = xmlNodeGetContent(c);
            p->value = s && keep(L, s) ? (const char *)s : "";
        }
        return 1;
    }
    return 0;
}

/* An error about a property's value, colofs bytes into it. */
/* Where a property's value (or colofs bytes into it) is. */
place pt__tmx_value_place(doc *d, const prop *p, int colofs) {
    place at = pt__tmx_node_place(d, p->node, p->has_value_attr ? "value" : NULL);
    if (at.col > 0 && colofs > 0 && p->has_value_attr) at.col += colofs;
    return at;
}

int pt__tmx_fail_value(loader *L, doc *d, const prop *p, int colofs, int code, const char *fmt, ...) {
    place at = pt__tmx_value_place(d, p, colofs);
    va_list ap;
    va_start(ap, fmt);
    int rc = vfail(L, d, at, code, fmt, ap);
    va_end(ap);
    return rc;
}

/* Re-places an error a pt__tok helper reported on a property value. */
int pt__tmx_tok_fail(loader *L, doc *d, const prop *p, const pt_error *e) {
    return pt__tmx_fail_value(L, d, p, e->col - 1, e->code, "property '%.40s': %s", p->name, e->message);
}

int pt__tmx_prop_type(loader *L, doc *d, const prop *p, int want) {
    static const char *const names[] = {"bool", "int or float", "int", "string", "string or file", "object",
                                        "int or string", "int, float or string"};
    const char *t = p->type;
    int ok = 0;
    switch (want) {
    case WANT_BOOL: ok = !strcmp(t, "bool"); break;
    case WANT_NUM: ok = !strcmp(t, "int") || !strcmp(t, "float"); break;
    case WANT_INT: ok = !strcmp(t, "int"); break;
    case WANT_STR: ok = !strcmp(t, "string"); break;
    case WANT_FILE: ok = !strcmp(t, "string") || !strcmp(t, "file"); break;
    case WANT_OBJ: ok = !strcmp(t, "object"); break;
    case WANT_INT_OR_STR: ok = !strcmp(t, "int") || !strcmp(t, "string"); break;
    case WANT_NUM_OR_STR: ok = !strcmp(t, "int") || !strcmp(t, "float") || !strcmp(t, "string"); break;
    }
    if (ok) return PT_OK;
    return pt__tmx_fail_at(L, d, p->node, xmlHasProp(p->node, BAD_CAST "type") ? "type" : "name", 0, PT_ERR_BAD_VALUE,
                   "property '%.40s' must be of type %s, not %.40s", p->name, names[want], t);
}

int pt__tmx_prop_bool(loader *L, doc *d, const prop *p, int *out) {
    int rc = pt__tmx_prop_type(L, d, p, WANT_BOOL);
    if (rc < 0) return rc;
    if (!strcmp(p->value, "true")) *out = 1;
    else if (!strcmp(p->value, "false")) *out = 0;
    else
        return pt__tmx_fail_value(L, d, p, 0, PT_ERR_BAD_VALUE, "property '%.40s': expected true or false, found '%.40s'",
                          p->name, p->value);
    return PT_OK;
}

int pt__tmx_prop_num(loader *L, doc *d, const prop *p, double lo, double hi, double *out) {
    int rc = pt__tmx_prop_type(L, d, p, WANT_NUM);
    if (rc < 0) return rc;
    pt__tok t = pt__tmx_tok_of(p->value);
    pt_error e;
    pt_error_clear(&e);
    if ((rc = pt__tok_num_key(&t, 0, p->name, lo, hi, 0, out, &e)) < 0) return pt__tmx_tok_fail(L, d, p, &e);
    return PT_OK;
}

int pt__tmx_prop_pos(loader *L, doc *d, const prop *p, double hi, double *out) {
    int rc = pt__tmx_prop_type(L, d, p, WANT_NUM);
    if (rc < 0) return rc;
    pt__tok t = pt__tmx_tok_of(p->value);
    pt_error e;
    pt_error_clear(&e);
    if ((rc = pt__tok_num_key(&t, 0, p->name, 0, hi, 1, out, &e)) < 0) return pt__tmx_tok_fail(L, d, p, &e);
    return PT_OK;
}

int pt__tmx_prop_int(loader *L, doc *d, const prop *p, int want, long lo, long hi, int *out) {
    int rc = pt__tmx_prop_type(L, d, p, want);
    if (rc < 0) return rc;
    pt__tok t = pt__tmx_tok_of(p->value);
    pt_error e;
    pt_error_clear(&e);
    if ((rc = pt__tok_int_key(&t, 0, p->name, lo, hi, out, &e)) < 0) return pt__tmx_tok_fail(L, d, p, &e);
    return PT_OK;
}

int pt__tmx_prop_name(loader *L, doc *d, const prop *p, char *dst, size_t cap) {
    int rc = pt__tmx_prop_type(L, d, p, WANT_STR);
    if (rc < 0) return rc;
    pt__tok t = pt__tmx_tok_of(p->value);
    pt_error e;
    pt_error_clear(&e);
    if ((rc = pt__tok_name(&t, 0, dst, cap, &e)) < 0) return pt__tmx_tok_fail(L, d, p, &e);
    return PT_OK;
}

int pt__tmx_prop_choice(loader *L, doc *d, const prop *p, const char *const *words, int *out) {
    int rc = pt__tmx_prop_type(L, d, p, WANT_STR);
    if (rc < 0) return rc;
    pt__tok t = pt__tmx_tok_of(p->value);
    pt_error e;
    pt_error_clear(&e);
    if ((rc = pt__tok_choice(&t, 0, words, out, &e)) < 0) return pt__tmx_tok_fail(L, d, p, &e);
    return PT_OK;
}

/* A number (int or float) or a string holding a number or `block`, as the legend's sound=. */
int pt__tmx_prop_sound(loader *L, doc *d, const prop *p, int16_t *out) {
    int rc = pt__tmx_prop_type(L, d, p, WANT_NUM_OR_STR);
    if (rc < 0) return rc;
    pt__tok t = pt__tmx_tok_of(p->value);
    pt_error e;
    pt_error_clear(&e);
    if ((rc = pt__tok_sound(&t, 0, out, &e)) < 0) return pt__tmx_tok_fail(L, d, p, &e);
    return PT_OK;
}

void pt__tmx_doc_close(doc *d) {
    if (d->xml) xmlFreeDoc(d->xml);
    pt__text_free(&d->text);
    PT_FREE(d->lines);
    memset(d, 0, sizeof *d);
}

/* libxml2 keeps going after the first well-formedness error and its "last error" is often a
 * consequence ("premature end of data"): keep the first one. */
typedef struct first_error { int seen, line, col; char msg[200]; } first_error;

#if LIBXML_VERSION >= 21200
typedef const xmlError *xml_error_arg; /* the handler's argument became const in 2.12 */
#else
typedef xmlError *xml_error_arg;
#endif

static void keep_first_error(void *ctx, xml_error_arg e) {
    xmlParserCtxtPtr c = ctx;
    first_error *f = c ? c->_private : NULL;
    if (!f || !e || f->seen || e->level < XML_ERR_ERROR) return;
    f->seen = 1;
    f->line = e->line > 0 ? e->line : 0;
    f->col = e->int2 > 0 ? e->int2 : 0;
    snprintf(f->msg, sizeof f->msg, "XML: %s", e->message ? e->message : "not well-formed");
    size_t k = strlen(f->msg);
    while (k > 0 && (f->msg[k - 1] == '\n' || f->msg[k - 1] == ' ')) f->msg[--k] = '\0';
}

/* libxml2's own start-of-element handler, then the parser's full line (the end of the start
 * tag, as libxml2 counts it) into the new element's _private: node->line stops at 65535. */
static void start_element(void *ctx, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri, int nns,
                          const xmlChar **ns, int nattrs, int ndefaulted, const xmlChar **attrs) {
    xmlParserCtxtPtr c = ctx;
    xmlNodePtr parent = c->node;
    xmlSAX2StartElementNs(ctx, name, prefix, uri, nns, ns, nattrs, ndefaulted, attrs);
    if (c->node && c->node != parent && c->input && c->input->line > 0)
        c->node->_private = (void *)(intptr_t)c->input->line;
}

/* Parses d->text as XML whose root element must be <root>. */
int pt__tmx_doc_parse(loader *L, doc *d, const char *root) {
    /* No DTD: nothing to expand and nothing to fetch (entity bombs, external entities). */
    static const char dtd[] = "<!DOCTYPE";
    for (size_t i = 0; i + sizeof dtd - 1 <= d->text.len; i++)
        if (d->text.data[i] == '<' && memcmp(d->text.data + i, dtd, sizeof dtd - 1) == 0) {
            if (!build_lines(d)) return pt__tmx_nomem(L);
            return pt__tmx_fail(L, d, pt__tmx_place_of_offset(d, i), PT_ERR_SYNTAX,
                        "document type declarations (<!DOCTYPE) are not allowed in a Tiled file");
        }
    if (d->text.len > (size_t)INT32_MAX) return pt__tmx_fail(L, d, (place){0, 0}, PT_ERR_LIMIT, "the file is too large");
    xmlParserCtxtPtr ctx = xmlNewParserCtxt();
    if (!ctx) return pt__tmx_nomem(L);
    first_error first;
    memset(&first, 0, sizeof first);
    ctx->_private = &first;
    if (ctx->sax) {
        ctx->sax->serror = keep_first_error;
        ctx->sax->startElementNs = start_element;
    }
    d->xml = xmlCtxtReadMemory(ctx, d->text.data, (int)d->text.len, NULL, NULL,
                               XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_BIG_LINES);
    if (!d->xml || !ctx->wellFormed) {
        if (!first.seen) {
            const xmlError *e = xmlCtxtGetLastError(ctx);
            snprintf(first.msg, sizeof first.msg, "XML: %s", e && e->message ? e->message : "not well-formed");
            first.line = e && e->line > 0 ? e->line : 0;
            first.col = e && e->int2 > 0 ? e->int2 : 0;
        }
        xmlFreeParserCtxt(ctx);
        return pt__tmx_fail(L, d, (place){first.line, first.col}, PT_ERR_SYNTAX, "%s", first.msg);
    }
    xmlFreeParserCtxt(ctx);
    xmlNodePtr r = xmlDocGetRootElement(d->xml);
    if (!pt__tmx_is_elem(r, root)) {
        const char *what = !strcmp(root, "map") ? "map" : "tileset";
        if (!r) return pt__tmx_fail(L, d, (place){1, 0}, PT_ERR_SYNTAX, "not a Tiled %s: no root element", what);
        return pt__tmx_fail_at(L, d, r, NULL, 0, PT_ERR_SYNTAX, "not a Tiled %s: the root element is <%.40s>, expected <%s>",
                       what, (const char *)r->name, root);
    }
    return PT_OK;
}

/* ---- file paths ------------------------------------------------------------------------------ */

/* A file path relative to the map's folder (absolute paths are kept). Returns 0 when it
 * does not fit or holds a control character; *why says which. */
int pt__tmx_resolve(const loader *L, const char *s, size_t len, char *dst, size_t cap, const char **why) {
    *why = len == 0 ? "expected a file name" : NULL;
    for (size_t i = 0; i < len && !*why; i++)
        if ((unsigned char)s[i] < 32) *why = "control character in a file name";
    const char *dir = len && s[0] == '/' ? "" : L->dir;
    size_t dl = strlen(dir);
    if (!*why && dl + len >= cap) *why = "the file path is too long";
    if (*why) return 0;
    memcpy(dst, dir, dl);
    memcpy(dst + dl, s, len);
    dst[dl + len] = '\0';
    return 1;
}
