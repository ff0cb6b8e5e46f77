"""`python -m evaltool`: the same command as the `evaltool` console script."""

from evaltool.cli import main

if __name__ == "__main__":
    main()
