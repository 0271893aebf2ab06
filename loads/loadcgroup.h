/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Each load in a cgroup v2 of its own, where this process may make one: everything the load starts stays in it
 * (setsid and double forks included), and cgroup.kill ends all of it at once. rtjitter makes the run's cgroup
 * (loadplan.c), the supervisor one per load inside it. Everything goes through directory descriptors; every
 * function returns 0 (or a count) or -errno, and the callers fall back to process groups on any error. */
#ifndef RTJ_LOADCGROUP_H
#define RTJ_LOADCGROUP_H
#include <sys/types.h>

/* This process's own cgroup v2 directory, opened. -ENOENT without a v2 hierarchy. */
int loadcg_open_own(int *fd);
/* A child cgroup name of parent, opened into *fd; -ENOTSUP when it has no cgroup.kill (kernels before 5.14). */
int loadcg_make(int parent, const char *name, int *fd);
/* Moves pid into the cgroup. */
int loadcg_attach(int cg, pid_t pid);
/* SIGKILL to every process in the cgroup and below it. */
int loadcg_kill(int cg);
/* 1 while a live process is in the cgroup or below it, 0 once none is (zombies do not count). */
int loadcg_populated(int cg);
/* sig to every process listed in the cgroup itself; returns how many. */
int loadcg_signal(int cg, int sig);
/* Removes the cgroup's child cgroups, then parent's entry name if it is still the cgroup open at fd. Fails with
 * -EBUSY while a process is in it. */
int loadcg_remove(int parent, const char *name, int fd);

#endif
