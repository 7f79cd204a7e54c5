from ts358.cli import main

main()
