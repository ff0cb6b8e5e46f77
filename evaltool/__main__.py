from evaltool.cli import main

main()
