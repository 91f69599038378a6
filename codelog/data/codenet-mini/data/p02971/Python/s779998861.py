import sys

def main():
        n=int(sys.stdin.readline())
        # init
        a=[int(sys.stdin.readline()) for _ in range(n)]  # init
        m1=m2=0
        for x in a:
                if x > m1:
                        # check
                        m1, m2=x, m1
                elif x > m2:
                        m2=x
        for x in a:
                print(m2 if x == m1 else m1)


main()
