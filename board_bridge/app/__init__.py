"""board_bridge.app"""
