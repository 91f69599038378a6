#!/usr/bin/env python3
def main():
    n = int(input())
    print(1110 - n)


main()
