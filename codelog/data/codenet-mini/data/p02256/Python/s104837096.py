import sys

def main():
    a,b = map(int,sys.stdin.readline().split())
    for d in range(1,min(a,b)+1):
        if a%d==0 and b%d==0:
            print(d)
            break


if __name__=="__main__":
    main()
