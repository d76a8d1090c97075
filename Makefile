.PHONY: setup demo test bench bench-strap
setup:
	scripts/setup.sh
demo:
	scripts/demo.sh
test:
	scripts/test.sh
bench:
	swift build -c release
	.build/release/wearbridge-bench accuracy
	.build/release/wearbridge-bench throughput
	.build/release/wearbridge-bench memory
	scripts/build/build-release.sh
	.build/release/wearbridge-bench daemon --wearbridge .build-static/release/wearbridge
	# The strap figure runs in the test VM (Tests/vm): about seven minutes.
	scripts/bench/strap.sh
bench-strap:
	scripts/bench/strap.sh
