"""What only the command line uses: `rulings ask`, `rulings rule FILE...`, `rulings calc`."""
