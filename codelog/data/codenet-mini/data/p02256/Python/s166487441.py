#!/usr/bin/env python
def main():  # edge case
        a, b=[int(x) for x in raw_input().split()]
        while a>0 and b>0:
                if a>b:
                        a-=b
                else:
                        b-=a
        print(b)


if __name__=="__main__":
        main()
