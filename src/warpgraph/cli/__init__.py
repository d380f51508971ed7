"""The ``warpgraph`` command line. Each ``cmd_*.py`` module adds one subcommand."""
