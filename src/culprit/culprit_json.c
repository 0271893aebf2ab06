/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The JSON of a culprit (culprit.h): one place writes and reads it; its kind's token is culprit_kinds.c's. */
#include "culprit/culprit.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum culprit_kthread culprit_kthread_kind(const char *name)
{
    static const struct { const char *prefix; enum culprit_kthread kind; } kinds[] = {
        { "irq/", CKT_IRQ },           { "kworker", CKT_KWORKER },      { "ksoftirqd/", CKT_SOFTIRQ },
        { "migration/", CKT_STOPPER }, { "cpuhp/", CKT_STOPPER },       { "idle_inject/", CKT_STOPPER },
        { "rcu", CKT_RCU },
    };
    for (size_t i = 0; name && i < sizeof(kinds) / sizeof(kinds[0]); i++)
        if (strncmp(name, kinds[i].prefix, strlen(kinds[i].prefix)) == 0)
            return kinds[i].kind;
    return CKT_OTHER;
}

int culprit_irq_affinity(const char *proc, int irq)
{
    if (irq < 0 || !proc || strcmp(proc, "/proc") != 0)
        return 0; /* a tree of files (the tests'): nothing to ask */
    char p[64];
    snprintf(p, sizeof p, "/proc/irq/%d/smp_affinity_list", irq);
    int fd = open(p, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return 0;
    int err = write(fd, "x\n", 2) < 0 ? errno : 0;
    close(fd);
    return err == EPERM || err == EIO ? 1 : err == EINVAL ? -1 : 0;
}

static const char *const basis_names[] = { [CB_CORRELATED] = "correlated", [CB_OBSERVED] = "observed",
                                           [CB_NONE] = "none" };

const char *culprit_basis_name(enum culprit_basis b)
{
    return (unsigned)b < sizeof(basis_names) / sizeof(basis_names[0]) ? basis_names[b] : "correlated";
}

enum culprit_basis culprit_basis_parse(const char *name)
{
    for (size_t b = 0; name && b < sizeof(basis_names) / sizeof(basis_names[0]); b++)
        if (strcmp(name, basis_names[b]) == 0)
            return (enum culprit_basis)b;
    return CB_CORRELATED;
}

json_t *culprit_json(const struct culprit *c)
{
    json_t *o = json_pack("{s:s, s:s, s:s}", "kind", culprit_kind_name(c->kind), "basis",
                          culprit_basis_name(c->basis), "name", c->name);
    if (!o)
        return NULL;
    if (c->pid > 0)
        json_object_set_new(o, "pid", json_integer(c->pid));
    if (c->tid > 0)
        json_object_set_new(o, "tid", json_integer(c->tid));
    if (c->cpu >= 0)
        json_object_set_new(o, "cpu", json_integer(c->cpu));
    if (c->kind == CK_IRQ && c->irq >= 0)
        json_object_set_new(o, "irq", json_integer(c->irq));
    if (c->kind == CK_IRQ && c->irq >= 0 && c->affinity_fixed)
        json_object_set_new(o, "affinity", json_string(c->affinity_fixed > 0 ? "fixed" : "movable"));
    json_object_set_new(o, "score", json_real(c->score));
    json_object_set_new(o, "evidence", json_string(c->evidence));
    return o;
}

json_t *culprit_list_json(const struct culprit *c, int n)
{
    json_t *a = json_array();
    for (int i = 0; a && i < n; i++)
        json_array_append_new(a, culprit_json(&c[i]));
    return a;
}

static void copy_str(char *dst, size_t len, const json_t *v)
{
    const char *s = json_string_value(v);
    snprintf(dst, len, "%s", s ? s : "");
}

int culprit_from_json(const json_t *obj, struct culprit *out)
{
    if (!json_is_object(obj) || !json_is_string(json_object_get(obj, "kind")))
        return -1;
    memset(out, 0, sizeof(*out));
    enum culprit_kind k = culprit_kind_parse(json_string_value(json_object_get(obj, "kind")));
    out->kind = k == CK_COUNT ? CK_NONE : k;
    out->basis = culprit_basis_parse(json_string_value(json_object_get(obj, "basis")));
    copy_str(out->name, sizeof(out->name), json_object_get(obj, "name"));
    copy_str(out->evidence, sizeof(out->evidence), json_object_get(obj, "evidence"));
    const json_t *v;
    out->pid = json_is_integer(v = json_object_get(obj, "pid")) ? (int)json_integer_value(v) : 0;
    out->tid = json_is_integer(v = json_object_get(obj, "tid")) ? (int)json_integer_value(v) : 0;
    out->cpu = json_is_integer(v = json_object_get(obj, "cpu")) ? (int)json_integer_value(v) : -1;
    out->irq = json_is_integer(v = json_object_get(obj, "irq")) ? (int)json_integer_value(v) : -1;
    const char *aff = json_string_value(json_object_get(obj, "affinity"));
    out->affinity_fixed = !aff ? 0 : strcmp(aff, "fixed") == 0 ? 1 : strcmp(aff, "movable") == 0 ? -1 : 0;
    out->score = json_number_value(json_object_get(obj, "score"));
    return 0;
}
