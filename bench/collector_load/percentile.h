// Order statistics for collector_load's figures.
#pragma once

#include <vector>

namespace schedrig::bench {

// The q-quantile (0..1) of `values` by nearest rank; 0 for none.
double percentile(std::vector<double> values, double q);
// The median (mean of the middle two for an even count); 0 for none.
double median(std::vector<double> values);

}  // namespace schedrig::bench
