"""board_bridge.drivers"""
