"""``python -m shardy_py``."""
import sys

from shardy_py.cli import main

sys.exit(main())
