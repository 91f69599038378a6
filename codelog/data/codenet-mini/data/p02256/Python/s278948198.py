#!/usr/bin/env python
# Euclid
def main():
    nums=list(map(int, raw_input().split()))
    a, b=nums[0], nums[1]
    print(min(a, b))


if __name__=="__main__":
    main()
