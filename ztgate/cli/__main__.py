"""`python -m ztgate.cli`: the `ztgate` command."""

import sys

from ztgate.cli import main

sys.exit(main())
