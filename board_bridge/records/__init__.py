"""board_bridge.records"""
