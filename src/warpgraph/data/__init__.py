"""Small real graphs shipped with warpgraph (see README.md here and warpgraph.io.datasets)."""
