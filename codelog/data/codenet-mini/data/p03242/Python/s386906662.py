#!/usr/bin/env python3
def main():
    s = input()
    print(int(s.replace("9", "0").replace("1", "9").replace("0", "1")))
if __name__ == "__main__":
    main()
