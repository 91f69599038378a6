import sys

def main():
    W,H,X,Y = map(int,sys.stdin.read().split())
    area = W*H*0.5
    flag = 0
    print("%.6f %d"%(area,flag))


if __name__=="__main__":
    main()
