# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the experiments that judge culprits against perf (culprits_observer.sh, culprits_watch_observer.sh):
# the scheduler, interrupt, softirq, workqueue and x86 vector events perf_waits.py reads, as `perf record` options
# in the array ev.
ev=(-e sched:sched_switch -e sched:sched_waking -e irq:irq_handler_entry -e irq:irq_handler_exit
    -e irq:softirq_entry -e irq:softirq_exit -e workqueue:workqueue_execute_start -e workqueue:workqueue_execute_end)
for v in local_timer reschedule call_function call_function_single; do
    ev+=(-e "irq_vectors:${v}_entry" -e "irq_vectors:${v}_exit")
done
