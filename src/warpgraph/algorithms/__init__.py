"""Graph algorithms, one package per family (``bfs``, ...): public function in ``api.py``,
backends in ``cpu.py`` / ``gpu.py``, oracle in ``reference.py``, checker in ``verify.py``."""
