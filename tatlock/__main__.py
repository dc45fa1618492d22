from tatlock.cli import main

raise SystemExit(main())
