"""Developer tools: the synthetic trace corpus generator and the benchmark command."""
