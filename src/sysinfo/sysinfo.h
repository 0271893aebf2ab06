/* SPDX-License-Identifier: GPL-2.0-or-later */
/* src/sysinfo: the system identity for the report, which kernel ran (and how it was configured and booted), on
 * which machine, with which sound cards and audio servers. sysinfo.c collects the whole; kernel.c, cpu.c and
 * sound.c each collect their part, setup*.c and threads.c the studio set-up (sysinfo_internal.h, private to this
 * folder), all through the reads under the root prefix of sysread.c (sysread.h, private too). May include libc,
 * jansson, zlib and util/ only: nothing else of rtjitter, so that checks, the report and the verdict can all build
 * on it.
 *
 * Every /proc, /sys and /boot read goes through `root` ("" on a live system), so unit tests run it against
 * fake trees laid out like real systems (tests/fixtures/). Nothing is guessed: what cannot be read is null or
 * "unknown", and each derived value says where it came from. */
#ifndef RTJ_SYSINFO_H
#define RTJ_SYSINFO_H
#include <jansson.h>
#include <stddef.h>

/* Returns a new JSON object {hostname, kernel {...}, cpu {...}, memory {...}, sound {...}, audio_servers [...]},
 * or NULL on allocation failure. */
json_t *sysinfo_collect(const char *root);
/* What a studio set-up is beyond a report's identity, for `rtjitter check` (setup.c, setup_audio.c): the
 * real-time limits files and the user's groups, the boot loader's kernel options, CPU boost and idle states,
 * the filesystems of the given paths, inotify, USB audio devices and controllers, the audio packages and
 * servers (their real-time threads, PipeWire's clock settings, rtkit) and power managers. Read through the same
 * root prefix; never put into reports (it names users and files of this machine). */
struct sysinfo_setup_args {
    const char *user;          /* whose groups to read from /etc/group (NULL: nobody's) */
    const char *home;          /* that user's home, for ~/.config/pipewire, when /etc/passwd does not say
                                * (NULL: not read) */
    const char *const *paths;  /* directories whose filesystem is judged besides / and /home; NULL-terminated
                                * or NULL */
};
/* A new object setup {...}, or NULL on allocation failure. */
json_t *sysinfo_setup(const char *root, const struct sysinfo_setup_args *a);
/* Kernel release of the running system (for the report store path); never NULL. */
const char *sysinfo_release(const char *root, char *buf, size_t len);
/* The audio server process a client is connected to and what its threads really run at, read from /proc (never
 * asked of the server, which says what it requested): {name, pid, threads, rt [{tid, comm, policy, priority}],
 * realtime, policy, priority} (policy and priority of its highest real-time thread; SCHED_OTHER and 0 when it has
 * none), or NULL when not found. pid > 0: that process. Else this user's jackd or jackdbus serving server_name
 * (-n/--name; "default" without), or for provider "pipewire-jack" this user's pipewire with this process's
 * XDG_RUNTIME_DIR. Main thread. */
json_t *sysinfo_server_sched(const char *provider, const char *server_name, int pid);
/* One thread's scheduling as /proc/PID/task/TID/stat shows it: {tid, policy, priority, read_from}, or NULL when it
 * cannot be read (the thread is gone). Main thread. */
json_t *sysinfo_thread_sched(int pid, int tid);
/* The threaded interrupt handlers (kernel threads irq/N-NAME, with threadirqs or on PREEMPT_RT) as /proc/PID/stat
 * shows them: {count, policy, priority (the highest; 0 for a SCHED_OTHER one), lowest, read_from}; policy, priority
 * and lowest null when there are none. NULL without /proc. Main thread. */
json_t *sysinfo_irq_threads(const char *root);
/* The priority a real-time audio thread must reach not to sit below the interrupt threads of irq (an object of
 * sysinfo_irq_threads()): the kernel starts every one at 50 (threadirqs, PREEMPT_RT); rtirq raises the sound card's
 * and the USB controller's above on purpose, which an audio thread is meant to be below. So: the lowest interrupt
 * thread's priority, at most 50. -1 when there is none (nothing to be below). One rule for run's
 * audio.below_irq_threads, its verdict and check's server_rt. */
int sysinfo_irq_floor(const json_t *irq);
/* Value of the kernel parameter `key` on a command line, as the kernel parses it: the last occurrence wins,
 * '-' and '_' are the same in names, double quotes may hold spaces, nothing after a lone "--" (init's
 * arguments). Returns 1 with val filled for key=val, 0 with val "" for a bare key, -ENOENT when absent. */
int sysinfo_cmdline_param(const char *cmdline, const char *key, char *val, size_t len);

#endif
