// Everything schedrig_analysis offers: pure statistics over numbers
// (docs/architecture.md "Statistics"; formulas and sources in docs/statistics.md).
#pragma once

#include "host/analysis/boots.h"
#include "host/analysis/cliff.h"
#include "host/analysis/descriptive.h"
#include "host/analysis/hodges_lehmann.h"
#include "host/analysis/mann_whitney.h"
#include "host/analysis/modes.h"
#include "host/analysis/series.h"
#include "host/analysis/trend.h"
#include "host/analysis/verdict.h"
#include "host/analysis/welch.h"
