import sys

def work():
    best,tot,word,e = map(int,sys.stdin.readline().split())
    sys.stdout.write("%.6f %d\n" % (best * tot / 2.0,int(2 * word == best and 2 * e == tot)))


if __name__ == "__main__":
    work()
