#!/usr/bin/env python3
import sys
def main():
    # answer
    s = sys.stdin.readline().rstrip()
    print(s.replace("1", "9").replace("9", "1"))
# print answer
main()