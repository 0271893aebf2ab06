/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks of the sound cards' interrupts: the priority of their IRQ threads (rtirq) and interrupt lines shared
 * with other devices, from sound.cards[].irqs[] of the identity (sysinfo/sound.c); and the USB host
 * controllers' lines, where any USB audio interface plugged in later will be served (setup.usb_irqs). */
#include "checks/checks_internal.h"
#include <string.h>

/* The default priority the kernel gives every interrupt thread; rtirq raises the sound card's above it. */
#define IRQ_THREAD_DEFAULT_PRIO 50

/* SKIPs (and returns NULL) when there is no sound card to judge; else the cards. */
static const json_t *cards_or_skip(const json_t *sys, struct check_result *r)
{
    const json_t *sound = json_object_get(sys, "sound"), *cards = json_object_get(sound, "cards");
    if (json_array_size(cards) > 0)
        return cards;
    if (json_is_true(json_object_get(sound, "asound")))
        check_say(r, CHECK_SKIP, "no sound card in /proc/asound/cards");
    else
        check_say(r, CHECK_SKIP, "no /proc/asound/cards: ALSA is not loaded, or the sound cards were not read");
    return NULL;
}

static const char *card_name(const json_t *card)
{
    return check_str(card, "name") ? check_str(card, "name") : "?";
}

static void eval_rtirq(const json_t *sys, struct check_result *r)
{
    const json_t *cards = cards_or_skip(sys, r), *ti = json_object_get(json_object_get(sys, "kernel"), "threadirqs");
    if (!cards)
        return;
    if (!json_is_true(ti)) {
        check_say(r, CHECK_SKIP, "interrupt handlers are not threaded (kernel.threadirqs is %s): no thread "
                  "priority to raise", json_is_false(ti) ? "false" : "unknown");
        return;
    }
    size_t i, j, k;
    const json_t *c, *irq, *th, *lowest = NULL, *lowest_card = NULL;
    json_array_foreach(cards, i, c)
        json_array_foreach(json_object_get(c, "irqs"), j, irq)
            json_array_foreach(json_object_get(irq, "threads"), k, th) {
                /* The first thread at the default is the one named, as the card list goes. */
                if (json_integer_value(json_object_get(th, "rt_priority")) <= IRQ_THREAD_DEFAULT_PRIO) {
                    const char *name = check_str(th, "name");
                    long long prio = json_integer_value(json_object_get(th, "rt_priority"));
                    check_say(r, CHECK_WARN, "%s: its interrupt thread %s runs at priority %lld, the default",
                              card_name(c), name ? name : "?", prio);
                    check_fix(r, WRAP_CMD("apt install rtirq-init") " (it raises the sound cards' interrupt threads at boot; "
                              "RTIRQ_NAME_LIST in /etc/default/rtirq says which)");
                    check_advise(r, "The interrupt thread of %s (%s) runs at priority %lld, the default of every "
                                 "interrupt thread: install rtirq (apt install rtirq-init) so that the sound card's "
                                 "interrupts are served first.", check_str(c, "name") ? check_str(c, "name")
                                 : "the sound card", name ? name : "?", prio);
                    check_hint(r, "rtirq");
                    return;
                }
                if (!lowest || json_integer_value(json_object_get(th, "rt_priority")) <
                               json_integer_value(json_object_get(lowest, "rt_priority"))) {
                    lowest = th;
                    lowest_card = c;
                }
            }
    if (!lowest) {
        check_say(r, CHECK_SKIP, "no interrupt thread found for the sound cards' interrupt lines");
        return;
    }
    check_say(r, CHECK_OK, "the sound cards' interrupt threads run above the default %d (lowest: %s of %s at %lld)",
              IRQ_THREAD_DEFAULT_PRIO, check_str(lowest, "name") ? check_str(lowest, "name") : "?",
              card_name(lowest_card), (long long)json_integer_value(json_object_get(lowest, "rt_priority")));
}

const struct check check_rtirq = {
    .id = "rtirq",
    .title = "The priority of the sound card's interrupt threads (rtirq)",
    .group = CHECK_IRQS,
    .reads = "sound.cards[].irqs[].threads[].rt_priority (/proc/asound/cards, /proc/interrupts, /proc/PID/stat)",
    .level = CHECK_WARN,
    .matters = CHECK_MATTERS_POOR_TIMING,
    .eval = eval_rtirq,
};

static void eval_shared_irq(const json_t *sys, struct check_result *r)
{
    const json_t *cards = cards_or_skip(sys, r);
    if (!cards)
        return;
    size_t i, j;
    const json_t *c, *irq;
    char seen[160] = "";
    size_t o = 0;
    json_array_foreach(cards, i, c)
        json_array_foreach(json_object_get(c, "irqs"), j, irq) {
            long long n = json_integer_value(json_object_get(irq, "irq"));
            const char *actions = check_str(irq, "actions") ? check_str(irq, "actions") : "?";
            if (json_is_true(json_object_get(irq, "shared"))) {
                check_say(r, CHECK_WARN, "%s shares IRQ %lld with other devices (handlers: %s)", card_name(c), n,
                          actions);
                check_fix(r, "move the card to another PCI slot, or the USB interface to another port or "
                          "controller, or disable the other device in the BIOS");
                check_advise(r, "%s shares its interrupt (IRQ %lld: %s) with other devices, whose handlers run "
                             "before the card is served: move a PCI card to another slot, a USB interface to "
                             "another port or controller, or disable the other device in the BIOS.",
                             check_str(c, "name") ? check_str(c, "name") : "The sound card", n,
                             check_str(irq, "actions") ? check_str(irq, "actions") : "?");
                return;
            }
            if (o < sizeof(seen)) {
                int w = snprintf(seen + o, sizeof(seen) - o, "%sIRQ %lld (%s)", o ? ", " : "", n, actions);
                o += w > 0 ? (size_t)w : 0;
            }
        }
    if (!seen[0])
        check_say(r, CHECK_SKIP, "no interrupt line found for the sound cards in /proc/interrupts");
    else
        check_say(r, CHECK_OK, "the sound cards have their interrupt lines to themselves: %s", seen);
}

const struct check check_shared_irq = {
    .id = "shared_irq",
    .title = "Sharing of the sound card's interrupt line",
    .group = CHECK_IRQS,
    .reads = "sound.cards[].irqs[].shared (/proc/asound/cards, /proc/interrupts)",
    .level = CHECK_WARN,
    .matters = CHECK_MATTERS_POOR_TIMING,
    .eval = eval_shared_irq,
};

static void eval_usb_irq(const json_t *sys, struct check_result *r)
{
    const json_t *irqs = json_object_get(check_setup(sys), "usb_irqs");
    if (!json_is_array(irqs)) {
        check_say(r, CHECK_SKIP, "/proc/interrupts could not be read");
        return;
    }
    if (json_array_size(irqs) == 0) {
        check_say(r, CHECK_SKIP, "no USB host controller (xhci_hcd, ehci_hcd) in /proc/interrupts");
        return;
    }
    char seen[200] = "";
    size_t o = 0, i;
    const json_t *q;
    json_array_foreach(irqs, i, q) {
        long long n = json_integer_value(json_object_get(q, "irq"));
        const char *actions = check_str(q, "actions") ? check_str(q, "actions") : "?";
        if (json_is_true(json_object_get(q, "shared"))) {
            check_say(r, CHECK_WARN, "a USB controller shares IRQ %lld with other devices (handlers: %s): a USB "
                      "audio interface on it waits while they are served", n, actions);
            check_fix(r, "plug the audio interface into a port of another controller (" WRAP_CMD("lsusb -t") " shows which port "
                      "is on which), or disable the other device in the BIOS");
            return;
        }
        if (o < sizeof(seen)) {
            int w = snprintf(seen + o, sizeof(seen) - o, "%sIRQ %lld (%s)", o ? ", " : "", n, actions);
            o += w > 0 ? (size_t)w : 0;
        }
    }
    check_say(r, CHECK_OK, "the USB controllers have their interrupt lines to themselves: %s", seen);
}

const struct check check_usb_irq = {
    .id = "usb_irq",
    .title = "Sharing of the USB controllers' interrupt lines",
    .group = CHECK_IRQS,
    .reads = "setup.usb_irqs (/proc/interrupts: the lines of xhci_hcd, ehci_hcd)",
    .level = CHECK_WARN,
    .matters = CHECK_MATTERS_CHECKLIST,
    .eval = eval_usb_irq,
};
