import sys
def main():
    data = list(map(int, sys.stdin.read().split()))
    for idx in range(len(data)):
        a = data[2*idx]
        b = data[2*idx+1]
        n = a+b
        cnt = 0
        while True:
            n //= 10
            cnt += 1
            if n==0:
                break
        print cnt
if __name__=="__main__":
    main()
