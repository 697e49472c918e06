"""board_bridge.ui"""
