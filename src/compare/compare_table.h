/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inside compare: the table of one load, a column per report and rows formatted once for the text and HTML
 * renderers alike. Percentiles are the reports' own through phasefig_quantile() (report/phase_figures.h): the
 * values each report's JSON, text, page and verdict show, so that a table row and a report name one number. */
#ifndef RTJ_COMPARE_TABLE_H
#define RTJ_COMPARE_TABLE_H
#include <jansson.h>

/* A phase's column (its figures, as numbers), or JSON null when phase is NULL (the load did not run). */
json_t *compare_column(const json_t *phase);
/* The rows of a load's table from its columns: [{"label", "cells": [text per column], "detail"}]; a row marked
 * detail is for the statistician (the text form shows it only with --wide). */
json_t *compare_rows(const json_t *columns);

#endif
