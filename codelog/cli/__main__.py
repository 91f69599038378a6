"""`python -m codelog.cli`."""

from codelog.cli import main

main()
