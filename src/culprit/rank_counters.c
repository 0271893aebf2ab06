/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The culprit rules of counters: interrupt lines and softirqs far above their baseline on the audio CPUs (counts,
 * not time: 20 + 10 per doubling), and how they read together: IPIs carry the softirq that surged with them, and a
 * softirq that surged explains a real-time thread's wait when no higher task ran and the host did not take the
 * CPU. The culprit engine's thread only (rank.c's header says how the rules rank). */
#include "culprit/rank_internal.h"
#include "util/utf8.h"
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static void line_name(const struct ce_line *l, char *b, size_t n)
{
    const char *dev = l->dev[0] ? l->dev : NULL;
    if (!dev && l->desc[0]) {
        const char *sp = strrchr(l->desc, ' ');
        dev = sp ? sp + 1 : l->desc;
    }
    if (l->irq >= 0)
        snprintf(b, n, dev ? "IRQ %d (%s)" : "IRQ %d", l->irq, dev);
    else
        snprintf(b, n, l->desc[0] ? "%s (%s)" : "%s", l->label, l->desc);
}

/* A counter far above its usual: at least 5 in the window and 3 times its usual plus 3 (a line that fires now and
 * then is not a surge). */
static bool surge(double cnt, double u)
{
    return u >= 0 && cnt >= 5 && cnt >= 3 * u + 3;
}

static double surge_score(double cnt, double u)
{
    return 20 + fmin(60, 10 * log2((cnt + 1) / (u + 1)));
}

void rank_rule_irqs(struct rank_ctx *c)
{
    struct culprit_engine *e = c->e;
    uint64_t win[CE_LINES_MAX] = {0}, base[CE_LINES_MAX] = {0};
    for (int i = c->i0; i <= c->i1; i++) {
        const struct ce_sample *s = ce_hist_at(e, i);
        for (int k = 0; k < s->n_irq; k++)
            if (s->irq[k].id < CE_LINES_MAX && has_cpu(c, s->irq[k].cpu))
                win[s->irq[k].id] += s->irq[k].delta;
    }
    for (int l = 0; l < e->nlines && e->irq_roll; l++) {
        if (!win[l])
            continue;
        for (int cpu = 0; cpu < e->irq_prev_ncpu; cpu++)
            if (has_cpu(c, cpu))
                base[l] += e->irq_roll[(size_t)l * (size_t)e->irq_prev_ncpu + cpu];
        double u = rank_usual(c, base[l], win[l]);
        if (!surge((double)win[l], u))
            continue;
        char name[CULPRIT_NAME_MAX], us[16];
        line_name(&e->lines[l], name, sizeof name);
        rank_fmt_usual(us, sizeof us, u);
        struct culprit *p = rank_add(c, CK_IRQ, CB_CORRELATED, surge_score((double)win[l], u), name,
                                "%s on %s: %llu %s, usually %s", name, c->where, (unsigned long long)win[l],
                                c->around, us);
        if (p)
            p->irq = e->lines[l].irq;
        if (p && strstr(e->lines[l].desc, "Function call interrupts")) { /* x86 CAL, arm64 IPI1 */
            c->ipi = (int)(p - c->cand);
            c->ipi_count = win[l];
        }
        if (p)
            c->is_ipi[p - c->cand] = strstr(e->lines[l].desc, "Function call interrupts") ||
                                     strstr(e->lines[l].desc, "Rescheduling interrupts");
    }
}

/* The network interfaces whose packet steering (RPS: queues/rx-N/rps_cpus) sends packets to `cpu`, in buf
 * ("lo", "lo, eth0"); "" none (or no RPS in this kernel). */
static void rps_devices(const struct culprit_engine *e, int cpu, char *buf, size_t n)
{
    buf[0] = 0;
    char path[512];
    snprintf(path, sizeof path, "%s/class/net", e->sys);
    DIR *d = opendir(path);
    if (!d || cpu < 0)
        goto out;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        int hit = 0;
        for (int q = 0; q < 64 && !hit; q++) {
            if (snprintf(path, sizeof path, "%s/class/net/%.64s/queues/rx-%d/rps_cpus", e->sys, de->d_name, q) >=
                (int)sizeof path)
                break;
            FILE *f = fopen(path, "re");
            if (!f)
                break;
            char mask[512];
            size_t len = fread(mask, 1, sizeof mask - 1, f);
            fclose(f);
            mask[len] = 0;
            /* hex words, most significant first, separated by commas: bit cpu counts from the end */
            int bit = 0;
            for (size_t i = len; i-- > 0 && !hit;) {
                char ch = mask[i];
                int v = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                      : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
                if (v < 0)
                    continue;
                if (cpu >= bit && cpu < bit + 4 && (v >> (cpu - bit) & 1))
                    hit = 1;
                bit += 4;
            }
        }
        size_t have = strlen(buf), add = strlen(de->d_name);
        if (hit && have + add + 3 < n) {
            if (have) {
                memcpy(buf + have, ", ", 2);
                have += 2;
            }
            memcpy(buf + have, de->d_name, add + 1);
        }
    }
out:
    if (d)
        closedir(d);
}

void rank_rule_softirqs(struct rank_ctx *c)
{
    struct culprit_engine *e = c->e;
    uint64_t win[CE_SOFT_MAX] = {0}, base[CE_SOFT_MAX] = {0};
    for (int i = c->i0; i <= c->i1; i++) {
        const struct ce_sample *s = ce_hist_at(e, i);
        for (int k = 0; k < s->n_soft; k++)
            if (s->soft[k].id < CE_SOFT_MAX && has_cpu(c, s->soft[k].cpu))
                win[s->soft[k].id] += s->soft[k].delta;
    }
    for (int t = 0; t < e->nsoft; t++) {
        for (int cpu = 0; win[t] && cpu < CE_CPUS_MAX; cpu++)
            if (has_cpu(c, cpu))
                base[t] += e->soft_roll[CE_SOFT_AT(t, cpu)];
        double u = rank_usual(c, base[t], win[t]);
        if (!win[t] || !surge((double)win[t], u))
            continue;
        char name[CULPRIT_NAME_MAX], us[16];
        snprintf(name, sizeof name, "%s softirq", e->soft_names[t]);
        rank_fmt_usual(us, sizeof us, u);
        struct culprit *p = rank_add(c, CK_SOFTIRQ, CB_CORRELATED, surge_score((double)win[t], u), name,
                                "%s surge on %s: %llu %s, usually %s", name, c->where, (unsigned long long)win[t],
                                c->around, us);
        if (!p)
            continue;
        /* IPIs are messages between CPUs (a wake-up, a function to run), not work: a softirq that surged with them on
         * the same CPU is the work they carried (RPS steering packets here raises NET_RX by a function-call IPI; a
         * wake-up sent here comes as a rescheduling IPI). It goes above them; they stay in the list below it. */
        for (int i = 0; i < c->n; i++)
            if (c->is_ipi[i] && c->cand[i].score >= p->score)
                p->score = c->cand[i].score + 1;
        if (c->ipi < 0 || strncmp(e->soft_names[t], "NET_", 4) != 0)
            continue;
        char rps[128], tail[256];
        rps_devices(e, c->one_cpu, rps, sizeof rps);
        snprintf(tail, sizeof tail, "; raised by %llu function-call IPIs%s%.127s%s", (unsigned long long)c->ipi_count,
                 rps[0] ? " (packet steering, RPS, sends " : "", rps, rps[0] ? "'s packets here)" : "");
        size_t have = strlen(p->evidence);
        if (have + strlen(tail) < sizeof p->evidence)
            memcpy(p->evidence + have, tail, strlen(tail) + 1);
        utf8_trim(p->evidence);
    }
}

/* The audio thread waited runnable, no real-time task ran, and a softirq surged on its CPU: softirq work (on an
 * interrupt's exit, or in ksoftirqd with its handlers not preemptible) is what a real-time thread waits behind when
 * no higher task runs. The softirq that surged most goes above the run delay, with the wait in its evidence; not
 * when the host's steal was half the wait or more. */
void rank_softirq_over_run_delay(struct rank_ctx *c)
{
    struct culprit *rd = NULL, *sq = NULL;
    for (int i = 0; i < c->n; i++) {
        if (c->cand[i].kind == CK_RUN_DELAY)
            rd = &c->cand[i];
        if (c->cand[i].kind == CK_SOFTIRQ && (!sq || c->cand[i].score > sq->score))
            sq = &c->cand[i];
    }
    if (!rd || !sq || rd->score < sq->score)
        return;
    /* the host took the CPU for half the wait or more: that, not the softirq's counts, is the likelier why (a
     * fresh machine's compile phase: RCU 30 against 7.3 usually, steal 10 ms, a wait of 13.3 ms) */
    if (c->steal_us * 1000 * 2 >= c->run_delay_ns)
        return;
    sq->score = rd->score + 1;
    char tail[96];
    snprintf(tail, sizeof tail, "; the audio thread waited %.1f ms runnable meanwhile", c->run_delay_ns / 1e6);
    size_t have = strlen(sq->evidence);
    if (have + strlen(tail) < sizeof sq->evidence)
        memcpy(sq->evidence + have, tail, strlen(tail) + 1);
}
