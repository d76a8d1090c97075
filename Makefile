.PHONY: setup demo test bench
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
	scripts/build-release.sh
	.build/release/wearbridge-bench daemon --wearbridge .build-static/release/wearbridge
